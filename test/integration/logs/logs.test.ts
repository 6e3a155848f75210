import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';

const PLAIN = 'text/plain; charset=utf-8';
const DAY = 24 * 3600 * 1000;
const N_RULE = 'Invalid n: must be an integer from 1 to 100';

interface Entry {
  id: string;
  method: string;
  path: string;
  endpoint: string;
  status_code: number;
  cost: number;
  balance: number;
  timestamp: string;
}

/** A wallet with a few calls of known paths behind it; `logs` reads its log. */
async function walletWithCalls(t: TestApp, paths: readonly string[], credits = 1000) {
  const token = await t.createToken(credits);
  for (const path of paths) {
    const res = await t.inject({ method: 'POST', url: `/kv/${path}`, headers: { 'x-token': token }, payload: 'v' });
    expect(res.statusCode).toBe(200);
  }
  const logs = (query = '') => t.inject({ method: 'GET', url: `/token/logs${query}`, headers: { 'x-token': token } });
  return { token, logs };
}

describeEachStore('GET /token/logs', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('answers {logs, n} newest first, n being the number of entries returned', async () => {
    const { logs } = await walletWithCalls(get(), ['b/1', 'b/2', 'b/3']);
    const res = await logs('?n=10');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json() as { logs: Entry[]; n: number; cursor: string | null };
    expect(Object.keys(body).sort()).toEqual(['cursor', 'logs', 'n']); // cursor: beyond the contract, null on the last page
    expect(body.cursor).toBeNull();
    expect(body.logs.map((entry) => entry.path)).toEqual(['/kv/b/3', '/kv/b/2', '/kv/b/1']);
    expect(body.logs.map((entry) => entry.balance)).toEqual([997, 998, 999]);
    expect(body.n).toBe(3);
  });

  it('orders by time before order of arrival', async () => {
    const t = get();
    const token = await t.createToken(10);
    await t.inject({ method: 'POST', url: '/kv/t/early', headers: { 'x-token': token }, payload: 'v' });
    clock.advance(1000);
    await t.inject({ method: 'POST', url: '/kv/t/late', headers: { 'x-token': token }, payload: 'v' });
    const res = await t.inject({ method: 'GET', url: '/token/logs?n=2', headers: { 'x-token': token } });
    const entries = res.json().logs as Entry[];
    expect(entries.map((entry) => entry.path)).toEqual(['/kv/t/late', '/kv/t/early']);
    expect(Date.parse(entries[0]?.timestamp ?? '') - Date.parse(entries[1]?.timestamp ?? '')).toBe(1000);
  });

  it('returns 5 entries by default', async () => {
    const { logs } = await walletWithCalls(get(), ['d/1', 'd/2', 'd/3', 'd/4', 'd/5', 'd/6', 'd/7']);
    const body = (await logs()).json() as { logs: Entry[]; n: number };
    expect(body.n).toBe(5);
    expect(body.logs.map((entry) => entry.path)).toEqual(['/kv/d/7', '/kv/d/6', '/kv/d/5', '/kv/d/4', '/kv/d/3']);
  });

  it('returns at most n entries, from 1 to 100', async () => {
    const paths = Array.from({ length: 120 }, (_, i) => `many/${i}`);
    const { logs } = await walletWithCalls(get(), paths);
    const one = (await logs('?n=1')).json() as { logs: Entry[]; n: number };
    expect([one.n, one.logs.length, one.logs[0]?.path]).toEqual([1, 1, '/kv/many/119']);
    const hundred = (await logs('?n=100')).json() as { logs: Entry[]; n: number };
    expect([hundred.n, hundred.logs.length]).toEqual([100, 100]);
    // The n=1 call is logged too, so the newest hundred run from it down to many/21.
    expect([hundred.logs[0]?.path, hundred.logs[1]?.path, hundred.logs[99]?.path]).toEqual([
      '/token/logs?n=1',
      '/kv/many/119',
      '/kv/many/21',
    ]);
    expect(new Set(hundred.logs.map((entry) => entry.id)).size).toBe(100);
  });

  it('returns fewer than n when the wallet has fewer entries, and n says how many', async () => {
    const { logs } = await walletWithCalls(get(), ['few/1', 'few/2']);
    const body = (await logs('?n=100')).json() as { logs: Entry[]; n: number };
    expect(body.n).toBe(2);
    expect(body.logs).toHaveLength(2);
  });

  it('answers an empty list with n 0 to a wallet that made no call', async () => {
    const { logs } = await walletWithCalls(get(), []);
    expect((await logs()).json()).toStrictEqual({ logs: [], n: 0, cursor: null });
  });

  it.each(['n=0', 'n=101', 'n=1.5', 'n=abc', 'n=-1', 'n='])('answers 400 to %s', async (query) => {
    const { logs } = await walletWithCalls(get(), []);
    const res = await logs(`?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toBe(N_RULE);
    expect(res.headers['x-cost']).toBe('0');
  });

  it('merges every category newest first when no type is given, n counting across them', async () => {
    const t = get();
    const token = await t.createToken(100);
    const call = async (method: 'GET' | 'POST', url: string) => {
      clock.advance(10);
      await t.inject({ method, url, headers: { 'x-token': token }, ...(method === 'POST' ? { payload: 'v' } : {}) });
    };
    await call('POST', '/kv/m/1');
    await call('GET', '/token');
    await call('GET', '/token/settings');
    await call('POST', '/kv/m/2');
    await call('GET', '/myip');
    await call('GET', '/token');
    const res = await t.inject({ method: 'GET', url: '/token/logs?n=5', headers: { 'x-token': token } });
    const body = res.json() as { logs: Entry[]; n: number };
    expect(body.logs.map((entry) => [entry.endpoint, entry.path])).toEqual([
      ['token', '/token'],
      ['myip', '/myip'],
      ['kv', '/kv/m/2'],
      ['settings', '/token/settings'],
      ['token', '/token'],
    ]);
    expect(body.n).toBe(5);
  });

  it('filters on the endpoint category with type', async () => {
    const t = get();
    const { token, logs } = await walletWithCalls(t, ['f/1', 'f/2']);
    await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    await t.inject({ method: 'GET', url: '/token/settings', headers: { 'x-token': token } });
    const kv = (await logs('?type=kv&n=100')).json() as { logs: Entry[]; n: number };
    expect(kv.logs.map((entry) => [entry.endpoint, entry.path])).toEqual([
      ['kv', '/kv/f/2'],
      ['kv', '/kv/f/1'],
    ]);
    expect(kv.n).toBe(2);
    const settings = (await logs('?type=settings')).json() as { logs: Entry[]; n: number };
    expect(settings.logs.map((entry) => [entry.endpoint, entry.path])).toEqual([['settings', '/token/settings']]);
    const token_ = (await logs('?type=token&n=100')).json() as { logs: Entry[] };
    expect(token_.logs.map((entry) => entry.path)).toEqual([
      '/token/logs?type=settings',
      '/token/logs?type=kv&n=100',
      '/token',
    ]);
    expect((await logs('?type=manage')).json()).toStrictEqual({ logs: [], n: 0, cursor: null });
  });

  it('answers 400 to an unknown type', async () => {
    const { logs } = await walletWithCalls(get(), []);
    const res = await logs('?type=bogus');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toBe(
      'Invalid type: must be one of kv, token, settings, webhook, webhook-delivery, url-to-metadata, myip, service, manage',
    );
  });

  it('costs nothing and is itself logged with cost 0 under the token category', async () => {
    const t = get();
    const { token, logs } = await walletWithCalls(t, ['free/1'], 10);
    const first = await logs('?n=1');
    expect([first.headers['x-cost'], first.headers['x-balance']]).toEqual(['0', '9']);
    const second = await logs('?n=1');
    expect([second.headers['x-cost'], second.headers['x-balance']]).toEqual(['0', '9']);
    expect(second.json().logs[0]).toMatchObject({
      method: 'GET',
      path: '/token/logs?n=1',
      endpoint: 'token',
      status_code: 200,
      cost: 0,
      balance: 9,
    });
    const row = await t.deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', [
      sha256Hex(token),
    ]);
    expect(row?.balance).toBe(9);
  });

  it('stops returning an entry 7 days after it was made', async () => {
    const { logs } = await walletWithCalls(get(), ['old/1']);
    clock.advance(7 * DAY - 1);
    const stillThere = (await logs('?type=kv')).json() as { logs: Entry[] };
    expect(stillThere.logs.map((entry) => entry.path)).toEqual(['/kv/old/1']);
    clock.advance(1);
    expect((await logs('?type=kv')).json()).toStrictEqual({ logs: [], n: 0, cursor: null });
  });

  it('shows only the calling wallet its entries', async () => {
    const a = await walletWithCalls(get(), ['mine/a']);
    const b = await walletWithCalls(get(), ['mine/b']);
    expect(((await a.logs('?type=kv')).json().logs as Entry[]).map((entry) => entry.path)).toEqual(['/kv/mine/a']);
    expect(((await b.logs('?type=kv')).json().logs as Entry[]).map((entry) => entry.path)).toEqual(['/kv/mine/b']);
  });
});
