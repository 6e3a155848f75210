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
    const dots = (field: string) => `Invalid ${field}: . and .. cannot be sent as a path segment`;
    const calls: [string, Record<string, unknown>, string][] = [
      ['kv_set', { bucket: '..', key: 'dns-lookup', value: 'x' }, dots('bucket')], // was POST /dns-lookup, 5 credits
      ['kv_get', { bucket: '..', key: 'token' }, dots('bucket')], // was GET /token
      ['kv_get', { bucket: 'b', key: '..' }, dots('key')], // was GET /kv (the bucket listing)
      ['kv_delete', { bucket: '.', key: 'k' }, dots('bucket')], // was DELETE /kv/k
      ['kv_set', { bucket: 'b', key: '.', value: 'x' }, dots('key')],
      ['kv_list', { bucket: '..' }, dots('bucket')], // was GET /
      // Was POST /test; the route's pattern refuses it first, as it would refuse it over HTTP.
      [
        'webhook_test',
        { webhookId: '..' },
        'Invalid webhookId: must be 1 to 30 characters from A-Z, a-z, 0-9, _ and -',
      ],
    ];
    for (const [name, args, wording] of calls) {
      const result = await call(name, args);
      expect([name, result.isError, textOf(result), result._meta]).toEqual([
        name,
        true,
        `400 ${wording}`,
        { status: 400, cost: 0 },
      ]);
    }
    // Nothing was charged or logged but this GET /token itself.
    expect(await walletAfter()).toBe(99);
    expect((await logs()).map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /token']);
  });

  /**
   * Each tool call is refused, free and unlogged, in the words the route answers the same HTTP call, which it charges
   * (client errors pay over HTTP); `wordingOf` reads the route's wording from its body.
   */
  async function expectRefusedFree(
    pairs: [string, Record<string, unknown>, HttpCall][],
    wordingOf: (body: string) => string = (body) => body,
  ): Promise<void> {
    const overHttp = await get().createToken(100);
    for (const [name, args, http] of pairs) {
      const result = await call(name, args);
      const answer = await get().inject({ ...http, headers: { 'x-token': overHttp, 'content-type': http.type } });
      expect([answer.statusCode, Number(answer.headers['x-cost']) > 0], http.url).toEqual([400, true]);
      expect([name, result.isError, textOf(result), result._meta]).toEqual([
        name,
        true,
        `400 ${wordingOf(answer.body)}`,
        { status: 400, cost: 0 },
      ]);
    }
    // Nothing was charged or logged but this GET /token itself.
    expect(await walletAfter()).toBe(99);
    expect((await logs()).map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /token']);
  }
  interface HttpCall {
    method: 'GET' | 'POST' | 'DELETE';
    url: string;
    payload?: string | Record<string, unknown>;
    type: string;
  }
  const text = 'text/plain';
  const json = 'application/json';

  it("refuses, free, what a URL-building tool's route would refuse and charge: its schema's rules and its own", async () => {
    await freshClient();
    await expectRefusedFree([
      ['kv_get', { bucket: 'a/b', key: 'k' }, { method: 'GET', url: '/kv/a%2Fb/k', type: text }],
      ['kv_get', { bucket: 'b', key: '' }, { method: 'GET', url: '/kv/b/', type: text }],
      ['kv_get', { bucket: 'reserved-b', key: 'k' }, { method: 'GET', url: '/kv/reserved-b/k', type: text }],
      [
        'kv_delete',
        { bucket: 'b', key: 'k'.repeat(31) },
        { method: 'DELETE', url: `/kv/b/${'k'.repeat(31)}`, type: text },
      ],
      [
        'kv_set',
        { bucket: 'b', key: 'k', value: 'v', ttl: '-1' },
        { method: 'POST', url: '/kv/b/k?ttl=-1', payload: 'v', type: text },
      ],
      [
        'kv_set',
        { bucket: 'b', key: 'k', value: 'v', ttl: 2_592_001 },
        { method: 'POST', url: '/kv/b/k?ttl=2592001', payload: 'v', type: text },
      ],
      [
        'kv_set',
        { bucket: 'b', key: 'k', value: 'v'.repeat(1001) },
        { method: 'POST', url: '/kv/b/k', payload: 'v'.repeat(1001), type: text },
      ],
      ['kv_list', { bucket: 'b', prefix: 'x/y' }, { method: 'GET', url: '/kv/b?prefix=x%2Fy', type: text }],
      ['kv_list', { bucket: 'b', limit: 0 }, { method: 'GET', url: '/kv/b?limit=0', type: text }],
      ['kv_buckets', { cursor: '' }, { method: 'GET', url: '/kv?cursor=', type: text }],
      ['webhook_test', { webhookId: 'a b' }, { method: 'POST', url: '/webhook/a%20b/test', type: text }],
    ]);
  });

  it('refuses, free, a DNS lookup the route would refuse and charge 5 credits for, before any query', async () => {
    await freshClient();
    const lookup = (body: Record<string, unknown>): HttpCall => ({
      method: 'POST',
      url: '/dns-lookup',
      payload: body,
      type: json,
    });
    const cases: Record<string, unknown>[] = [
      { domains: [] }, // the schema's count
      { domains: 'example.com' }, // a JSON body is not coerced
      { domains: ['example.com'], recordTypes: ['AX'] },
      { domains: ['example.com'], timeout: 10 },
      { domains: ['example.com'], colour: 'red' },
      { domains: ['localhost'] }, // the lookup's own rules: a name of two labels or more, or an IP address
      { domains: ['example.com', 'bad..name'] },
      { domains: ['example.com', ' '] },
      { domains: ['example.com/x'] },
      { domains: ['example.com'], propagationServers: ['not a server'] },
      { domains: ['example.com'], propagationServers: ['9.9.9.9', '9.9.9.9:99999'] },
    ];
    await expectRefusedFree(cases.map((body) => ['dns_lookup', body, lookup(body)]));
  });

  it('refuses, free, a URL fetch the route would refuse and charge a credit for, before any connection', async () => {
    await freshClient();
    const fetchOf = (body: Record<string, unknown>): HttpCall => ({
      method: 'POST',
      url: '/url-to-metadata',
      payload: body,
      type: json,
    });
    const cases: Record<string, unknown>[] = [
      { url: 12 },
      { url: `https://example.com/${'x'.repeat(2048)}` },
      { url: 'https://example.com/', aiSummary: 'huge' },
      { url: 'example.com' },
      { url: 'ftp://example.com/file' },
      { url: 'https://user:secret@example.com/' },
      { url: ' ' },
    ];
    // The route answers `{success: false, error}`; the tool, as for every refusal, the plain text.
    await expectRefusedFree(
      cases.map((body) => ['url_metadata', body, fetchOf(body)]),
      (body) => JSON.parse(body).error as string,
    );
  });

  it("sends a name the route takes as it is: encoded dots are a key's name like any other", async () => {
    await freshClient();
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
      ['kv_get', { bucket: 'b', key: 'k', extra: 1 }, 'Unknown field: extra'],
      ['kv_delete', { bucket: 'b', key: 'k', extra: 1 }, 'Unknown field: extra'],
      ['webhook_test', { webhookId: 'default', extra: 1 }, 'Unknown field: extra'],
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
