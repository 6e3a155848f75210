import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { MINUTE } from '../../../src/lib/time.js';
import { FREE_BURST } from '../../../src/ledger/free-row-limit.js';

const PLAIN = 'text/plain; charset=utf-8';

/** The stored log rows of a wallet, oldest first, once this instance has written its buffer. */
async function storedRows(
  t: TestApp,
  token: string,
): Promise<Array<{ path: string; status_code: number; cost: number; error: string | null }>> {
  await t.deps.ledger.flush();
  return t.deps.store.read.all('SELECT path, status_code, cost, error FROM logs WHERE wallet_id = $1 ORDER BY seq', [
    await walletIdOf(t.deps, token),
  ]);
}

describeEachStore('call logs cost bounded storage', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('stores a 15 KB request path cut to 512 characters, ending with …', async () => {
    const token = await get().createToken(10);
    const url = `/token?pad=${'x'.repeat(15_000)}`;
    expect((await get().inject({ method: 'GET', url, headers: { 'x-token': token } })).statusCode).toBe(200);
    const [row] = await storedRows(get(), token);
    expect(row?.path).toHaveLength(512);
    expect(row?.path).toBe(`${url.slice(0, 511)}…`);
  });

  it('stores a path of exactly 512 characters as it is', async () => {
    const token = await get().createToken(10);
    const url = `/token?pad=${'y'.repeat(512 - '/token?pad='.length)}`;
    await get().inject({ method: 'GET', url, headers: { 'x-token': token } });
    expect((await storedRows(get(), token)).map((row) => row.path)).toEqual([url]);
  });

  it.each([
    ['POST /kv set', 'POST', '/kv/b/k?ttl=60&foo=1', '1'],
    ['GET /token/logs', 'GET', '/token/logs?n=2&foo=1', '0'],
    ['GET /recharge', 'GET', '/recharge?amount=1&foo=1', '0'],
  ])(
    'answers 400 Unknown query parameter to an unknown parameter on %s, charging its usual cost',
    async (_name, method, url, cost) => {
      const token = await get().createToken(10);
      const res = await get().inject({
        method: method,
        url,
        headers: { 'x-token': token },
        payload: method === 'POST' ? 'v' : undefined,
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([
        400,
        'Unknown query parameter: foo',
        PLAIN,
      ]);
      expect(res.headers['x-cost']).toBe(cost);
    },
  );

  it.each([
    ['/token/logs?type=kv&type=token', 'Invalid type: must be given once'],
    ['/kv/b?prefix=a&prefix=b', 'Invalid prefix: must be given once'],
  ])('says a text parameter given twice must be given once (%s)', async (url, words) => {
    const token = await get().createToken(10);
    const res = await get().inject({ method: 'GET', url, headers: { 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([400, words]);
  });

  it('repeats a long unknown parameter name in the 400 body and the log only in part', async () => {
    const token = await get().createToken(10);
    const name = 'q'.repeat(15_000);
    const res = await get().inject({ method: 'GET', url: `/token/logs?${name}=1`, headers: { 'x-token': token } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`Unknown query parameter: ${'q'.repeat(63)}…`);
    const [row] = await storedRows(get(), token);
    expect(row?.error).toBe(res.body);
    expect(row?.path.length).toBe(512);
  });

  it(`logs every free call served within the budget (${FREE_BURST} at once); the one refused beyond it adds no row`, async () => {
    const token = await get().createToken(10);
    for (let i = 0; i < FREE_BURST; i++) {
      const res = await get().inject({ method: 'GET', url: `/token/logs?n=1`, headers: { 'x-token': token } });
      expect(res.statusCode).toBe(200);
    }
    expect(
      (await get().inject({ method: 'GET', url: `/token/logs?n=1`, headers: { 'x-token': token } })).statusCode,
    ).toBe(429);
    expect(await storedRows(get(), token)).toHaveLength(FREE_BURST);
    clock.advance(MINUTE);
    expect(
      (await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } })).statusCode,
    ).toBe(200);
    expect(await storedRows(get(), token)).toHaveLength(FREE_BURST + 1);
  });

  it(`logs at most ${FREE_BURST} refused (402) calls of a wallet at once, but every paid call`, async () => {
    const token = await get().createToken(2);
    for (let i = 0; i < FREE_BURST + 10; i++)
      await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    const rows = await storedRows(get(), token);
    expect(rows.filter((row) => row.cost === 1)).toHaveLength(2);
    // FREE_BURST + 8 refusals, FREE_BURST of them logged: paid rows do not use the budget.
    expect(rows.filter((row) => row.status_code === 402)).toHaveLength(FREE_BURST);
    expect(rows).toHaveLength(FREE_BURST + 2);

    // The budget is spent, but a paid call is still logged.
    const paid = await get().createToken(5);
    for (let i = 0; i < FREE_BURST + 1; i++)
      await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': paid } });
    expect((await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': paid } })).statusCode).toBe(200);
    const paidRows = await storedRows(get(), paid);
    expect(paidRows).toHaveLength(FREE_BURST + 1);
    expect(paidRows.at(-1)).toMatchObject({ path: '/token', cost: 1 });
  });
});
