import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';

interface LogEntry {
  method: string;
  path: string;
  status_code: number;
  cost: number;
  error?: string;
}

describeEachStore('MCP tool arguments', (kind) => {
  const get = useTestApp(kind);
  let base = '';
  let client: Client | undefined;
  let token = '';

  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await client?.close();
  });

  /** A new wallet of 100 credits and a client for it. */
  async function freshClient(): Promise<Client> {
    await client?.close();
    token = await get().createToken(100);
    client = new Client({ name: 'coinop-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers: { 'x-token': token } } }),
    );
    return client;
  }
  const call = async (name: string, args: Record<string, unknown>) => {
    if (client === undefined) throw new Error('no client');
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  };
  const textOf = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');
  const logs = async (): Promise<LogEntry[]> =>
    (await get().inject({ method: 'GET', url: '/token/logs?n=100', headers: { 'x-token': token } })).json<{
      logs: LogEntry[];
    }>().logs;
  const walletAfter = async (): Promise<number> =>
    (await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json<{ wallet: number }>()
      .wallet;

  it('never reaches another route through . or .. in a path argument, and charges nothing for it', async () => {
    await freshClient();
    const calls: [string, Record<string, unknown>, string][] = [
      ['kv_set', { bucket: '..', key: 'dns-lookup', value: 'x' }, 'bucket'], // was POST /dns-lookup, 5 credits
      ['kv_get', { bucket: '..', key: 'token' }, 'bucket'], // was GET /token
      ['kv_get', { bucket: 'b', key: '..' }, 'key'], // was GET /kv (the bucket listing)
      ['kv_delete', { bucket: '.', key: 'k' }, 'bucket'], // was DELETE /kv/k
      ['kv_set', { bucket: 'b', key: '.', value: 'x' }, 'key'],
      ['kv_list', { bucket: '..' }, 'bucket'], // was GET /
      ['webhook_test', { webhookId: '..' }, 'webhookId'], // was POST /test
    ];
    for (const [name, args, field] of calls) {
      const result = await call(name, args);
      expect([name, result.isError, textOf(result), result._meta]).toEqual([
        name,
        true,
        `400 Invalid ${field}: . and .. cannot be sent as a path segment`,
        { status: 400, cost: 0 },
      ]);
    }
    // Nothing was charged or logged but this GET /token itself.
    expect(await walletAfter()).toBe(99);
    expect((await logs()).map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /token']);
  });

  it('sends what the URL can carry to the route, which refuses and charges it as the same HTTP call', async () => {
    await freshClient();
    const overHttp = await get().createToken(100);
    const pairs: [string, Record<string, unknown>, { method: 'GET' | 'POST'; url: string; payload?: string }][] = [
      ['kv_get', { bucket: 'a/b', key: 'k' }, { method: 'GET', url: '/kv/a%2Fb/k' }],
      [
        'kv_set',
        { bucket: 'b', key: 'k', value: 'v', ttl: '-1' },
        { method: 'POST', url: '/kv/b/k?ttl=-1', payload: 'v' },
      ],
      ['kv_get', { bucket: 'b', key: '' }, { method: 'GET', url: '/kv/b/' }],
    ];
    for (const [name, args, http] of pairs) {
      const result = await call(name, args);
      const answer = await get().inject({ ...http, headers: { 'x-token': overHttp, 'content-type': 'text/plain' } });
      expect([result.isError, textOf(result), result._meta?.cost]).toEqual([
        true,
        `${answer.statusCode} ${answer.body}`,
        Number(answer.headers['x-cost']),
      ]);
      expect(answer.statusCode).toBe(400);
    }
    expect((await logs()).map((entry) => [entry.path, entry.cost])).toEqual([
      ['/kv/b/', 1],
      ['/kv/b/k?ttl=-1', 1],
      ['/kv/a%2Fb/k', 1],
    ]);
    // Encoded dots are a name like any other: stored and read under that name, on the kv route.
    expect(textOf(await call('kv_set', { bucket: 'b', key: '%2e%2e', value: 'dots' }))).toBe('OK');
    const answer = await get().inject({ method: 'GET', url: '/kv/b/%252e%252e', headers: { 'x-token': token } });
    expect(answer.body).toBe('dots');
  });

  it('refuses, free, arguments no request of the route stands for: missing, unknown or not text', async () => {
    await freshClient();
    const refusals: [string, Record<string, unknown>, string][] = [
      ['kv_get', { bucket: 'b' }, 'Missing required field: key'], // was GET /kv/b/, charged 1
      ['kv_set', { bucket: 'b', key: 'k' }, 'Missing required field: value'],
      ['kv_set', { bucket: 'b', key: 'k', value: 'v', colour: 'red' }, 'Unknown field: colour'],
      ['kv_get', { bucket: { name: 'b' }, key: 'k' }, 'Invalid bucket: must be string'],
      ['kv_list', { bucket: 'b', limit: [1, 2] }, 'Invalid limit: must be an integer from 1 to 100'],
    ];
    for (const [name, args, wording] of refusals) {
      const result = await call(name, args);
      expect([name, result.isError, textOf(result), result._meta]).toEqual([
        name,
        true,
        `400 ${wording}`,
        { status: 400, cost: 0 },
      ]);
    }
    expect(await walletAfter()).toBe(99);
    // Numbers are written as the route reads them, as before.
    expect(textOf(await call('kv_set', { bucket: 'b', key: 7, value: 'seven', ttl: 60 }))).toBe('OK');
    expect(textOf(await call('kv_get', { bucket: 'b', key: '7' }))).toBe('seven');
  });
});
