import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { DAY } from '../../../src/lib/time.js';
import { ADMIN_TOKEN, expectPlain, operator } from './operator.js';

const DAYS_RULE = 'Invalid days: must be an integer from 1 to 90';

/** `calls` paid calls of 1 credit each (GET /token). */
async function spend(t: TestApp, token: string, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++)
    expect((await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).headers['x-cost']).toBe(
      '1',
    );
}

describeEachStore('operator API: stats', (kind) => {
  // 23:30 UTC: the next call an hour later is on the next UTC day.
  const clock = new ManualClock(Date.parse('2026-02-08T23:30:00.000Z'));
  // Its own database: the totals are those of the wallets made here.
  const get = useTestApp(kind, { clock, env: { ADMIN_TOKEN } });

  it('counts wallets, the credits they hold, and the credits spent on each UTC day, days without spending as 0', async () => {
    const t = get();
    const [a, b] = [await t.createToken(100), await t.createToken(50)];
    await t.createToken(0);
    await spend(t, a, 3); // Feb 8
    clock.advance(DAY + 3_600_000); // Feb 10, 00:30
    await spend(t, b, 2);
    await spend(t, a, 1);
    // Free calls and operator calls spend nothing.
    await t.inject({ method: 'GET', url: '/token/logs', headers: { 'x-token': a } });
    await operator(t).debit(sha256Hex(b), { amount: 10 });
    await operator(t).credit(sha256Hex(a), { amount: 4 });
    const res = await operator(t).stats('?days=3');
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(res.json()).toStrictEqual({
      wallets: 3,
      credits: 100 - 3 - 1 + 4 + (50 - 2 - 10),
      spentPerDay: [
        { day: '2026-02-08', credits: 3 },
        { day: '2026-02-09', credits: 0 },
        { day: '2026-02-10', credits: 3 },
      ],
    });
  });

  it('covers the last 7 days by default, oldest first, today last', async () => {
    const days = (await operator(get()).stats()).json().spentPerDay as Array<{ day: string; credits: number }>;
    expect(days.map((d) => d.day)).toEqual([
      '2026-02-04',
      '2026-02-05',
      '2026-02-06',
      '2026-02-07',
      '2026-02-08',
      '2026-02-09',
      '2026-02-10',
    ]);
    expect(days.map((d) => d.credits)).toEqual([0, 0, 0, 0, 3, 0, 3]);
  });

  it('keeps what a deleted wallet spent, and no longer counts the wallet or its credits', async () => {
    const t = get();
    const token = await t.createToken(20);
    await spend(t, token, 5);
    const before = (await operator(t).stats('?days=1')).json();
    expectPlain(await operator(t).remove(sha256Hex(token)), 200, 'OK');
    const after = (await operator(t).stats('?days=1')).json();
    expect(after).toStrictEqual({
      wallets: before.wallets - 1,
      credits: before.credits - 15,
      spentPerDay: [{ day: '2026-02-10', credits: 8 }],
    });
  });

  it('reads spending older than the 7 days the log keeps, up to 90 days', async () => {
    clock.advance(30 * DAY);
    const days = (await operator(get()).stats('?days=90')).json().spentPerDay as Array<{
      day: string;
      credits: number;
    }>;
    expect(days).toHaveLength(90);
    expect(days.at(-1)?.day).toBe('2026-03-12');
    expect(days.filter((d) => d.credits > 0)).toEqual([
      { day: '2026-02-08', credits: 3 },
      { day: '2026-02-10', credits: 8 },
    ]);
  });

  it('is not logged in any wallet', async () => {
    const t = get();
    await t.deps.ledger.flush();
    const count = async () =>
      Number(
        (await t.deps.store.read.get<{ n: number }>("SELECT COUNT(*) AS n FROM logs WHERE path LIKE '/manage/stats%'"))
          ?.n,
      );
    await operator(t).stats();
    await t.deps.ledger.flush();
    expect(await count()).toBe(0);
  });

  it.each([
    ['?days=0', DAYS_RULE],
    ['?days=91', DAYS_RULE],
    ['?days=1.5', DAYS_RULE],
    ['?days=week', DAYS_RULE],
    ['?from=2026-01-01', 'Unknown query parameter: from'],
  ])('answers 400 to %s', async (query, message) => {
    expectPlain(await operator(get()).stats(query), 400, message);
  });
});
