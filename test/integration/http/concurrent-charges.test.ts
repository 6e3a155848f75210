import { afterAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { STORE_KINDS } from '../../helpers/stores.js';
import { describe } from 'vitest';
import { DEFAULT_POOL_SIZE } from '../../../src/store/store.js';

/** The pool users run (test apps keep a smaller one): as many charges in flight at once as in service. */
const FULL_POOL = { env: { DATABASE_POOL_SIZE: String(DEFAULT_POOL_SIZE) } };

async function hammer(apps: readonly TestApp[], token: string, requests: number) {
  const responses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      (apps[i % apps.length] as TestApp).inject({
        method: 'POST',
        url: `/kv/race/k${i}`,
        payload: 'v',
        headers: { 'x-token': token },
      }),
    ),
  );
  const count = (status: number) => responses.filter((r) => r.statusCode === status).length;
  return { ok: count(200), short: count(402), responses };
}

describeEachStore('concurrent charges against one wallet', (kind) => {
  let app: TestApp;
  afterAll(async () => app?.close());

  it('200 concurrent 1-credit calls on 100 credits: exactly 100 succeed, 100 get 402, balance ends at 0', async () => {
    app = await startTestApp(kind, FULL_POOL);
    const token = await app.createToken(100);
    const { ok, short, responses } = await hammer([app], token, 200);
    expect(ok).toBe(100);
    expect(short).toBe(100);
    // Every success saw a distinct balance: no charge was lost or applied twice.
    const balances = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-balance']));
    expect(new Set(balances).size).toBe(100);
    expect(Math.min(...balances)).toBe(0);
    const info = await app.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(info.statusCode).toBe(402);
    expect(info.headers['x-balance']).toBe('0');
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('two instances on one PostgreSQL', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });

  it('200 concurrent calls split over both instances: exactly 100 succeed and the wallet ends at 0', async () => {
    apps.push(await startTestApp('postgres', FULL_POOL));
    apps.push(await startTestApp('postgres', { ...FULL_POOL, database: (apps[0] as TestApp).database }));
    const token = await (apps[0] as TestApp).createToken(100);
    const { ok, short } = await hammer(apps, token, 200);
    expect(ok).toBe(100);
    expect(short).toBe(100);
    const row = await (apps[1] as TestApp).deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets');
    expect(row?.balance).toBe(0);
    const stored = await (apps[1] as TestApp).deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM kv');
    expect(Number(stored?.n)).toBe(100);
  });
});
