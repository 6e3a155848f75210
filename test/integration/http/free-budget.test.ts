import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { FREE_BURST } from '../../../src/ledger/free-row-limit.js';

// Everything free draws on one budget per wallet, kept by the metering layer (src/http/metering.ts): the free routes
// and every POST /mcp. Beyond it: 429 with retry-after, and no work done for the call; paid calls never draw on it.
const FREE_ROUTES = [
  '/token/logs?n=1',
  '/token/spend',
  '/webhook/none/deliveries',
  '/webhook/none/deliveries/d1',
  '/recharge?amount=1m',
];

const get = (t: TestApp, token: string, url: string) => t.inject({ method: 'GET', url, headers: { 'x-token': token } });

function postMcp(t: TestApp, token: string, body: unknown) {
  return t.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    payload: JSON.stringify(body),
  });
}

const listTools = (t: TestApp, token: string) =>
  postMcp(t, token, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** One POST /mcp of these tool calls (a batch when more than one); the `_meta` of each result. */
async function callTools(t: TestApp, token: string, calls: [string, Record<string, unknown>][]): Promise<unknown[]> {
  const messages = calls.map(([name, args], id) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  }));
  const answer = await postMcp(t, token, messages.length === 1 ? messages[0] : messages);
  expect(answer.statusCode, answer.body).toBe(200);
  const parsed = answer.json<{ result: { _meta: unknown } } | { result: { _meta: unknown } }[]>();
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message) => message.result._meta);
}

/** Calls `call` until it is refused (at most `limit` times); the answers given. */
async function untilRefused(call: () => Promise<{ statusCode: number }>, limit: number): Promise<number> {
  for (let i = 0; i < limit; i++) if ((await call()).statusCode === 429) return i;
  return limit;
}

describeEachStore('one free-call budget per wallet', (kind) => {
  const clock = new ManualClock();
  const testApp = useTestApp(kind, { clock });

  it(`serves ${FREE_BURST} free calls at once, then answers 429 with retry-after without reading the store`, async () => {
    const t = testApp();
    const token = await t.createToken(50);
    for (let i = 0; i < FREE_BURST; i++)
      expect((await get(t, token, FREE_ROUTES[i % FREE_ROUTES.length] ?? '')).statusCode).not.toBe(429);
    // A balance only the store knows: an answer that read the store would show it.
    await t.deps.store.write((tx) => tx.run('UPDATE wallets SET balance = 777 WHERE hash = $1', [sha256Hex(token)]));
    for (const url of FREE_ROUTES) {
      const refused = await get(t, token, url);
      expect([refused.statusCode, refused.body, refused.headers['content-type']], url).toEqual([
        429,
        'Too Many Requests',
        'text/plain; charset=utf-8',
      ]);
      expect([refused.headers['retry-after'], refused.headers['x-cost'], refused.headers['x-balance']], url).toEqual([
        '1',
        '0',
        '50',
      ]);
    }
  });

  it('never holds back paid calls, nor another wallet, and gives one free call back a second', async () => {
    const t = testApp();
    const token = await t.createToken(50);
    expect(await untilRefused(() => get(t, token, '/token/logs?n=1'), FREE_BURST + 1)).toBe(FREE_BURST);
    const paid = await get(t, token, '/token');
    expect([paid.statusCode, paid.headers['x-cost']]).toEqual([200, '1']);
    expect((await get(t, await t.createToken(5), '/token/logs?n=1')).statusCode).toBe(200);
    clock.advance(1000);
    expect((await get(t, token, '/token/logs?n=1')).statusCode).toBe(200);
    expect((await get(t, token, '/token/logs?n=1')).statusCode).toBe(429);
  });

  it('counts every POST /mcp, tools/list included: a loop of them hits the budget', async () => {
    const t = testApp();
    const token = await t.createToken(50);
    const first = await listTools(t, token);
    expect(first.statusCode, first.body).toBe(200);
    expect(await untilRefused(() => listTools(t, token), FREE_BURST + 5)).toBe(FREE_BURST - 1);
    const refused = await listTools(t, token);
    expect([refused.statusCode, refused.body, refused.headers['retry-after']]).toEqual([429, 'Too Many Requests', '1']);
    expect((await get(t, token, '/token/logs?n=1')).statusCode).toBe(429);
    expect((await get(t, token, '/token')).statusCode).toBe(200);
  });

  it('draws once for a free tool call through MCP: the call uses the draw of its POST', async () => {
    const t = testApp();
    const token = await t.createToken(50);
    expect(await callTools(t, token, [['logs', { n: 1 }]])).toEqual([{ status: 200, cost: 0, balance: 50 }]);
    expect(await untilRefused(() => get(t, token, '/token/logs?n=1'), FREE_BURST + 5)).toBe(FREE_BURST - 1);
  });

  it('draws one for each free tool call of a batch, and none beyond the POST for a paid or a refused call', async () => {
    const t = testApp();
    const token = await t.createToken(50);
    const free = await callTools(t, token, [
      ['logs', { n: 1 }],
      ['logs', { n: 2 }],
      ['logs', { n: 3 }],
    ]);
    expect(free).toEqual([0, 1, 2].map(() => ({ status: 200, cost: 0, balance: 50 })));
    const other = await callTools(t, token, [
      ['balance', {}],
      ['kv_get', { bucket: 'b', key: '' }],
    ]);
    expect(other).toEqual([
      { status: 200, cost: 1, balance: 49 },
      { status: 400, cost: 0 },
    ]);
    // Three draws for the first POST (its own, used by its first call, and one each for the others), one for the second.
    expect(await untilRefused(() => get(t, token, '/token/logs?n=1'), FREE_BURST + 5)).toBe(FREE_BURST - 4);
  });
});
