import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { DnsLookupBody } from '../../../src/features/dns/index.js';

const TOOL_NAMES = [
  'balance',
  'dns_lookup',
  'kv_buckets',
  'kv_delete',
  'kv_get',
  'kv_list',
  'kv_set',
  'logs',
  'my_ip',
  'url_metadata',
  'webhook_list',
  'webhook_test',
];

interface LogEntry {
  method: string;
  path: string;
  endpoint: string;
  status_code: number;
  cost: number;
  balance: number;
  error?: string;
}

describeEachStore('MCP over Streamable HTTP', (kind) => {
  let testApp: TestApp | undefined;
  let dns: TestDnsServer | undefined;
  let base = '';
  const clients: Client[] = [];
  const get = (): TestApp => {
    if (testApp === undefined) throw new Error('test app not started');
    return testApp;
  };

  beforeAll(async () => {
    // A loopback resolver, so that dns_lookup answers without leaving the machine.
    dns = await startDnsServer({ zone: [rr('mcp.test', 'A', '93.184.215.14', 300)] });
    testApp = await startTestApp(kind, { env: { DNS_SERVERS: dns.address } });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await testApp?.close();
    await dns?.close();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'coinop-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult, index = 0) => {
    const item = result.content[index];
    return item?.type === 'text' ? item.text : '';
  };
  async function lastLogs(token: string, n: number): Promise<LogEntry[]> {
    const answer = await get().inject({ method: 'GET', url: `/token/logs?n=${n}`, headers: { 'x-token': token } });
    return answer.json<{ logs: LogEntry[] }>().logs;
  }

  it('lists the tools, each with the input schema of its route', async () => {
    const client = await connect({ authorization: `Bearer ${await get().createToken()}` });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description).toMatch(/credit|free/);
    }
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema;
    expect(schemaOf('dns_lookup')).toEqual(JSON.parse(JSON.stringify(DnsLookupBody)));
    expect(Object.keys(schemaOf('kv_set')?.properties ?? {}).sort()).toEqual(['bucket', 'key', 'ttl', 'value']);
    expect(schemaOf('kv_set')?.required).toEqual(expect.arrayContaining(['bucket', 'key', 'value']));
    expect(Object.keys(schemaOf('logs')?.properties ?? {}).sort()).toEqual(['n', 'type']);
    // A field with a default (the route fills it in) is never listed as required.
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
      const defaulted = Object.keys(properties).filter((name) => properties[name]?.default !== undefined);
      expect(
        (tool.inputSchema.required ?? []).filter((name) => defaulted.includes(name)),
        tool.name,
      ).toEqual([]);
    }
    expect(schemaOf('webhook_test')?.required).toEqual(['webhookId']);
    expect(Object.keys(schemaOf('kv_list')?.properties ?? {}).sort()).toEqual(['bucket', 'cursor', 'limit', 'prefix']);
    expect(schemaOf('kv_list')?.required).toEqual(['bucket']);
    expect(Object.keys(schemaOf('kv_buckets')?.properties ?? {}).sort()).toEqual(['cursor', 'limit', 'prefix']);
    expect(schemaOf('kv_buckets')?.required ?? []).toEqual([]);
  });

  it("lists a bucket's keys through GET /kv/{bucket}, paging as the route does and refusing, free, what it refuses", async () => {
    const token = await get().createToken(20);
    for (const key of ['b', 'a', 'c', 'other'])
      await get().inject({
        method: 'POST',
        url: `/kv/mcp-list/${key}`,
        headers: { 'x-token': token, 'content-type': 'text/plain' },
        payload: 'v',
      });
    const client = await connect({ 'x-token': token });
    const first = await call(client, 'kv_list', { bucket: 'mcp-list', limit: 2 });
    expect(first._meta).toEqual({ status: 200, cost: 1, balance: 15 });
    expect(JSON.parse(text(first))).toMatchObject({
      keys: [
        { key: 'a', size: 1 },
        { key: 'b', size: 1 },
      ],
      cursor: 'b',
    });
    const rest = await call(client, 'kv_list', { bucket: 'mcp-list', limit: 2, cursor: 'b', prefix: 'c' });
    expect(JSON.parse(text(rest))).toMatchObject({ keys: [{ key: 'c' }], cursor: null });
    const refused = await call(client, 'kv_list', { bucket: 'mcp-list', limit: 0 });
    expect([refused.isError, text(refused), refused._meta]).toEqual([
      true,
      '400 Invalid limit: must be an integer from 1 to 100',
      { status: 400, cost: 0 },
    ]);
    // Not made, so neither charged nor logged: the last entry is the page before.
    const [entry] = await lastLogs(token, 1);
    expect([entry?.method, entry?.path, entry?.endpoint, entry?.cost, entry?.balance]).toEqual([
      'GET',
      '/kv/mcp-list?prefix=c&limit=2&cursor=b',
      'kv',
      1,
      14,
    ]);
    expect((await call(client, 'balance'))._meta).toEqual({ status: 200, cost: 1, balance: 13 });
  });

  it("lists the wallet's buckets through GET /kv, paging as the route does", async () => {
    const token = await get().createToken(20);
    for (const [bucket, key] of [
      ['mcp-b', 'k1'],
      ['mcp-b', 'k2'],
      ['mcp-a', 'k'],
    ])
      await get().inject({
        method: 'POST',
        url: `/kv/${bucket}/${key}`,
        headers: { 'x-token': token, 'content-type': 'text/plain' },
        payload: 'xy',
      });
    const client = await connect({ 'x-token': token });
    const first = await call(client, 'kv_buckets', { limit: 1 });
    expect(first._meta).toEqual({ status: 200, cost: 1, balance: 16 });
    expect(JSON.parse(text(first))).toEqual({
      buckets: [{ bucket: 'mcp-a', keys: 1, size: 2, capped: false }],
      cursor: 'mcp-a',
    });
    const rest = await call(client, 'kv_buckets', { cursor: 'mcp-a', prefix: 'mcp' });
    expect(JSON.parse(text(rest))).toEqual({
      buckets: [{ bucket: 'mcp-b', keys: 2, size: 4, capped: false }],
      cursor: null,
    });
    const [entry] = await lastLogs(token, 1);
    expect([entry?.method, entry?.path, entry?.endpoint, entry?.cost]).toEqual([
      'GET',
      '/kv?prefix=mcp&cursor=mcp-a',
      'kv',
      1,
    ]);
  });

  it('runs each tool through its route, saying what it cost and the balance', async () => {
    const token = await get().createToken(100);
    const client = await connect({ 'x-token': token });

    const set = await call(client, 'kv_set', { bucket: 'mcp', key: 'greeting', value: 'hello', ttl: 60 });
    expect(set.isError).toBeUndefined();
    expect(text(set)).toBe('OK');
    expect(text(set, 1)).toBe('cost: 1 credit, balance: 99');
    expect(set._meta).toEqual({ status: 200, cost: 1, balance: 99 });

    const read = await call(client, 'kv_get', { bucket: 'mcp', key: 'greeting' });
    expect(text(read)).toBe('hello');
    expect(read._meta).toEqual({ status: 200, cost: 1, balance: 98 });

    expect(text(await call(client, 'kv_delete', { bucket: 'mcp', key: 'greeting' }))).toBe('OK');
    const missing = await call(client, 'kv_get', { bucket: 'mcp', key: 'greeting' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('404 Key Not Found');
    expect(missing._meta).toEqual({ status: 404, cost: 1, balance: 96 });

    const ip = await call(client, 'my_ip');
    expect((JSON.parse(text(ip)) as { ip: string }).ip).toBe('127.0.0.1');

    const webhooks = await call(client, 'webhook_list');
    expect([JSON.parse(text(webhooks)), webhooks._meta]).toEqual([
      { webhooks: [] },
      { status: 200, cost: 1, balance: 94 },
    ]);
    const unknownWebhook = await call(client, 'webhook_test', { webhookId: 'nope' });
    expect([unknownWebhook.isError, text(unknownWebhook)]).toEqual([true, '404 Webhook not found']);

    const balance = await call(client, 'balance');
    expect((JSON.parse(text(balance)) as { wallet: number }).wallet).toBe(92);

    const lookup = await call(client, 'dns_lookup', {
      domains: ['mcp.test'],
      recordTypes: ['A'],
      performReverseLookup: false,
      enableEnrichment: false,
      enableSslInspection: false,
    });
    expect(lookup._meta).toEqual({ status: 200, cost: 5, balance: 87 });
    expect(JSON.parse(text(lookup))).toMatchObject({
      results: [{ domain: 'mcp.test', lookupResult: { records: { A: [{ address: '93.184.215.14' }] } } }],
    });

    // What the route would refuse, and charge over HTTP (DNS 5, URL metadata 1), the tool refuses first, free.
    const badLookup = await call(client, 'dns_lookup', { domains: [] });
    expect([badLookup.isError, badLookup._meta]).toEqual([true, { status: 400, cost: 0 }]);
    expect(text(badLookup)).toBe('400 Invalid domains: must list 1 to 10 domain names or IP addresses');
    expect(text(badLookup, 1)).toBe('cost: 0 credits');
    const badPage = await call(client, 'url_metadata', { url: 12 });
    expect([text(badPage), badPage._meta]).toEqual([
      '400 Invalid url: must be a string of at most 2048 characters',
      { status: 400, cost: 0 },
    ]);

    const logs = await call(client, 'logs', { n: 3, type: 'kv' });
    expect(text(logs, 1)).toBe('cost: 0 credits, balance: 87');
    const entries = (JSON.parse(text(logs)) as { logs: LogEntry[] }).logs;
    expect(entries.map((entry) => [entry.method, entry.path, entry.status_code])).toEqual([
      ['GET', '/kv/mcp/greeting', 404],
      ['DELETE', '/kv/mcp/greeting', 200],
      ['GET', '/kv/mcp/greeting', 200],
    ]);
  });

  it("carries the route's body once per result: as text, with no structuredContent repeating it", async () => {
    const token = await get().createToken(10);
    const client = await connect({ 'x-token': token });
    const value = `once-${'v'.repeat(900)}`;
    await call(client, 'kv_set', { bucket: 'once', key: 'once-key-name', value });
    const read = await call(client, 'kv_get', { bucket: 'once', key: 'once-key-name' });
    expect(text(read)).toBe(value);
    expect(read.structuredContent).toBeUndefined();
    expect(JSON.stringify(read).split(value).length - 1).toBe(1);
    const listed = await call(client, 'kv_list', { bucket: 'once' });
    expect(listed.structuredContent).toBeUndefined();
    // A JSON route's body too: its text once, not again parsed.
    expect(JSON.stringify(listed).split('once-key-name').length - 1).toBe(1);
  });

  it('charges and logs a tool call exactly as the same HTTP call', async () => {
    const overMcp = await get().createToken(10);
    const overHttp = await get().createToken(10);
    const client = await connect({ authorization: `Bearer ${overMcp}` });

    const result = await call(client, 'kv_set', { bucket: 'same', key: 'k', value: 'v', ttl: '30' });
    const answer = await get().inject({
      method: 'POST',
      url: '/kv/same/k?ttl=30',
      headers: { 'x-token': overHttp, 'content-type': 'text/plain' },
      payload: 'v',
    });
    expect(answer.headers['x-cost']).toBe('1');
    expect(result._meta).toEqual({
      status: 200,
      cost: Number(answer.headers['x-cost']),
      balance: Number(answer.headers['x-balance']),
    });

    const balanceOf = async (token: string) =>
      (await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json<{ wallet: number }>()
        .wallet;
    expect(await balanceOf(overMcp)).toBe(await balanceOf(overHttp));
    const [mcpEntries, httpEntries] = [await lastLogs(overMcp, 2), await lastLogs(overHttp, 2)];
    const kindOf = ({ method, path, endpoint, status_code, cost, balance }: LogEntry) => ({
      method,
      path,
      endpoint,
      status_code,
      cost,
      balance,
    });
    // [GET /token, POST /kv/…]: the same entries, category and all, on either path.
    expect(mcpEntries.map(kindOf)).toEqual(httpEntries.map(kindOf));
    expect(kindOf(mcpEntries[1] as LogEntry)).toEqual({
      method: 'POST',
      path: '/kv/same/k?ttl=30',
      endpoint: 'kv',
      status_code: 200,
      cost: 1,
      balance: 9,
    });
  });

  it('refuses a call the wallet cannot pay, charging nothing', async () => {
    const token = await get().createToken(3);
    const client = await connect({ 'x-token': token });
    const refused = await call(client, 'url_metadata', { url: 'https://example.com/' });
    expect([refused.isError, text(refused), refused._meta]).toEqual([
      true,
      '402 Insufficient credits',
      { status: 402, cost: 0, balance: 3 },
    ]);
    const [entry] = await lastLogs(token, 1);
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/url-to-metadata',
      endpoint: 'url-to-metadata',
      status_code: 402,
      cost: 0,
      balance: 3,
    });
    expect((await call(client, 'balance'))._meta).toEqual({ status: 200, cost: 1, balance: 2 });
  });

  it("says in x-cost and x-balance, as every authenticated answer, what the POST's tool calls cost in all and the balance they left", async () => {
    const token = await get().createToken(100);
    const post = (body: unknown) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify(body),
      });
    const tool = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const paid = await post([
      tool(1, 'kv_set', { bucket: 'b', key: 'k', value: 'v' }),
      tool(2, 'kv_get', { bucket: 'b', key: 'k' }),
      tool(3, 'kv_get', { bucket: 'b', key: 'reserved/x' }), // refused by the tool, free
      tool(4, 'logs', {}),
    ]);
    expect(paid.status).toBe(200);
    expect([paid.headers.get('x-cost'), paid.headers.get('x-balance')]).toEqual(['2', '98']);
    const listed = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect([listed.headers.get('x-cost'), listed.headers.get('x-balance')]).toEqual(['0', '98']);
  });

  it('answers 401 without a known token, and 405 to GET', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: initialize,
      });
    const unknownTokens: Record<string, string>[] = [
      {},
      { authorization: 'Bearer coin_unknown_token_000000000000000000000000000' },
      { 'x-token': 'coin_unknown_token_0000000000000000000000' },
    ];
    for (const headers of unknownTokens) {
      const answer = await post(headers);
      expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([
        401,
        'text/plain; charset=utf-8',
        'Unauthorized',
      ]);
    }
    await expect(connect({})).rejects.toThrow(/Unauthorized/);
    const accepted = await post({ authorization: `Bearer ${await get().createToken()}` });
    expect(accepted.status).toBe(200);
    expect((await accepted.json()) as unknown).toMatchObject({ result: { serverInfo: { name: 'coinop' } } });
    const streamAsked = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect([streamAsked.status, await streamAsked.text()]).toEqual([405, 'Method Not Allowed']);
  });
});
