import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const PLAIN = 'text/plain; charset=utf-8';
const AMOUNT_RULE = 'Invalid amount: must be an integer from 1 to 1000000000';
const UNKNOWN_HASH = 'f'.repeat(64);

/** Operator calls; `null` sends no x-admin-token header at all. */
function operator(t: TestApp, adminToken: string | null = ADMIN_TOKEN) {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(adminToken === null ? {} : { 'x-admin-token': adminToken }),
    ...extra,
  });
  return {
    read: (hash: string) => t.inject({ method: 'GET', url: `/manage/wallets/${hash}`, headers: headers() }),
    credit: (hash: string, body: unknown) =>
      t.inject({
        method: 'POST',
        url: `/manage/wallets/${hash}/credit`,
        headers: headers({ 'content-type': 'application/json' }),
        payload: JSON.stringify(body),
      }),
  };
}

function expectPlain(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  body: string,
) {
  expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([status, body, PLAIN]);
}

describeEachStore('operator API with ADMIN_TOKEN set', (kind) => {
  const clock = new ManualClock(Date.parse('2026-02-10T10:00:00.000Z'));
  const get = useTestApp(kind, { clock, env: { ADMIN_TOKEN } });

  it('reads a wallet by hash as {hash, wallet, created, lastUsed}', async () => {
    const token = await get().createToken(42);
    const res = await operator(get()).read(sha256Hex(token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const iso = new Date(clock.now()).toISOString();
    expect(res.json()).toStrictEqual({ hash: sha256Hex(token), wallet: 42, created: iso, lastUsed: iso });
    expect(res.headers['x-cost']).toBeUndefined();
  });

  it('credits a wallet, answers {hash, wallet}, and GET /token then shows the new balance', async () => {
    const t = get();
    const token = await t.createToken(10);
    const res = await operator(t).credit(sha256Hex(token), { amount: 500, reason: 'support ticket 17' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({ hash: sha256Hex(token), wallet: 510 });
    const info = await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(info.json().wallet).toBe(509);
    expect((await operator(t).read(sha256Hex(token))).json().wallet).toBe(509);
  });

  it('accepts the largest amount, 1e9, without a reason', async () => {
    const token = await get().createToken(0);
    const res = await operator(get()).credit(sha256Hex(token), { amount: 1e9 });
    expect(res.json()).toStrictEqual({ hash: sha256Hex(token), wallet: 1e9 });
  });

  it('lets an emptied wallet pay again once credited', async () => {
    const t = get();
    const token = await t.createToken(0);
    expect((await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(402);
    await operator(t).credit(sha256Hex(token), { amount: 1 });
    const info = await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect([info.statusCode, info.json().wallet]).toEqual([200, 0]);
  });

  it.each([
    ['a missing x-admin-token', null],
    ['a wrong x-admin-token', 'operator-secret-0123456788'],
    ['a prefix of the admin token', ADMIN_TOKEN.slice(0, -1)],
    ['the admin token in another case', ADMIN_TOKEN.toUpperCase()],
    ['an empty x-admin-token', ''],
  ])('answers 403 Forbidden to %s, and changes nothing', async (_name, adminToken) => {
    const t = get();
    const token = await t.createToken(10);
    const as = operator(t, adminToken);
    expectPlain(await as.read(sha256Hex(token)), 403, 'Forbidden');
    expectPlain(await as.credit(sha256Hex(token), { amount: 5 }), 403, 'Forbidden');
    expectPlain(await as.read(UNKNOWN_HASH), 403, 'Forbidden');
    expect((await operator(t).read(sha256Hex(token))).json().wallet).toBe(10);
  });

  it('does not take a user token as the admin token', async () => {
    const token = await get().createToken(10);
    const res = await get().inject({
      method: 'GET',
      url: `/manage/wallets/${sha256Hex(token)}`,
      headers: { 'x-token': token },
    });
    expectPlain(res, 403, 'Forbidden');
  });

  it('answers 404 Not Found to a hash no wallet has', async () => {
    expectPlain(await operator(get()).read(UNKNOWN_HASH), 404, 'Not Found');
    expectPlain(await operator(get()).credit(UNKNOWN_HASH, { amount: 5 }), 404, 'Not Found');
  });

  it.each(['abc', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(65)])(
    'answers 400 to the malformed hash %s',
    async (hash) => {
      expectPlain(await operator(get()).read(hash), 400, 'Invalid hash: must be a SHA-256 hex hash');
    },
  );

  it.each([
    ['zero', { amount: 0 }, AMOUNT_RULE],
    ['negative', { amount: -5 }, AMOUNT_RULE],
    ['above 1e9', { amount: 1e9 + 1 }, AMOUNT_RULE],
    ['fractional', { amount: 1.5 }, AMOUNT_RULE],
    ['a string', { amount: '5' }, AMOUNT_RULE],
    ['missing', { reason: 'x' }, 'Missing required field: amount'],
    ['beside an unknown field', { amount: 5, to: 'me' }, 'Unknown field: to'],
  ])('answers 400 to an amount that is %s, and credits nothing', async (_name, body, message) => {
    const t = get();
    const token = await t.createToken(10);
    expectPlain(await operator(t).credit(sha256Hex(token), body), 400, message);
    expect((await operator(t).read(sha256Hex(token))).json().wallet).toBe(10);
  });

  it("logs both calls in that wallet's log with endpoint manage and cost 0", async () => {
    const t = get();
    const token = await t.createToken(10);
    const hash = sha256Hex(token);
    await operator(t).read(hash);
    await operator(t).credit(hash, { amount: 90 });
    const res = await t.inject({ method: 'GET', url: '/token/logs?type=manage', headers: { 'x-token': token } });
    const iso = new Date(clock.now()).toISOString();
    const entry = (method: string, path: string, balance: number) => ({
      id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      method,
      path,
      endpoint: 'manage',
      status_code: 200,
      response_time_ms: expect.any(Number),
      timestamp: iso,
      expiration: new Date(clock.now() + 7 * 24 * 3600 * 1000).toISOString(),
      cost: 0,
      balance,
    });
    expect(res.json()).toStrictEqual({
      logs: [entry('POST', `/manage/wallets/${hash}/credit`, 100), entry('GET', `/manage/wallets/${hash}`, 10)],
      n: 2,
      cursor: null,
    });
  });

  it("does not log refused operator calls in the wallet's log", async () => {
    const t = get();
    const token = await t.createToken(10);
    await operator(t, 'wrong-admin-token-000').read(sha256Hex(token));
    await operator(t).credit(sha256Hex(token), { amount: 0 });
    const res = await t.inject({ method: 'GET', url: '/token/logs?type=manage', headers: { 'x-token': token } });
    expect(res.json()).toStrictEqual({ logs: [], n: 0, cursor: null });
  });
});

describeEachStore('operator API without ADMIN_TOKEN', (kind) => {
  const get = useTestApp(kind);

  it('answers 404 Not Found on its paths, whatever x-admin-token says', async () => {
    const token = await get().createToken(10);
    for (const adminToken of [null, ADMIN_TOKEN, '']) {
      const as = operator(get(), adminToken);
      expectPlain(await as.read(sha256Hex(token)), 404, 'Not Found');
      expectPlain(await as.credit(sha256Hex(token), { amount: 5 }), 404, 'Not Found');
    }
    const info = await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(info.json().wallet).toBe(9);
  });
});
