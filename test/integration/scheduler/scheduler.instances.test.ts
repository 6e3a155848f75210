import { beforeAll, describe, expect, it } from 'vitest';
import { useTwoPostgresInstances } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { MINUTE } from '../../../src/lib/time.js';
import { insertSchedules } from './fixtures.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const SCHEDULES = 1000;
const WALLETS = 10;

describe.skipIf(!process.env.TEST_DATABASE_URL)('scheduled runs, two instances on one PostgreSQL', () => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  const instances = useTwoPostgresInstances({ clock, env: outbound.env });
  let first: TestApp;
  let second: TestApp;
  beforeAll(() => ([first, second] = instances()));

  it(`fires each of ${SCHEDULES} due runs exactly once: no duplicate, no miss`, { timeout: 60_000 }, async () => {
    const tokens = await Promise.all(Array.from({ length: WALLETS }, () => first.createToken(1000)));
    const walletIds = await Promise.all(tokens.map((token) => walletIdOf(first.deps, token)));
    await insertSchedules(
      first.deps,
      Array.from({ length: SCHEDULES }, (_, i) => ({
        walletId: walletIds[i % WALLETS] as number,
        webhookId: `s${i}`,
        url: outbound.url('/two-instances'),
        cron: '* * * * *',
        // Spread over the last minute, so candidates are read in an order both instances share.
        nextRunAt: START - (i % 60) * 1000,
      })),
    );

    // Small batches make the two instances interleave claims many times over.
    const options = { batchSize: 16, concurrency: 32 };
    const [a, b] = await Promise.all([runDueSchedules(first.deps, options), runDueSchedules(second.deps, options)]);
    expect(a.fired + b.fired).toBe(SCHEDULES);
    expect(a.fired).toBeGreaterThan(0);
    expect(b.fired).toBeGreaterThan(0);

    const ids = outbound.requestsTo('/two-instances').map((request) => JSON.parse(request.text).webhookId as string);
    expect(ids).toHaveLength(SCHEDULES);
    expect(new Set(ids).size).toBe(SCHEDULES);

    // Each wallet paid for exactly its own runs, once.
    for (const token of tokens) {
      const wallet = await first.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
      expect(wallet.json().wallet).toBe(1000 - 2 * (SCHEDULES / WALLETS) - 1);
    }
    const states = await first.deps.store.read.all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM webhooks WHERE last_status = 'success' AND next_run_at = $1",
      [START + MINUTE],
    );
    expect(Number(states[0]?.n)).toBe(SCHEDULES);

    // Nothing is left to fire on either instance.
    const [again1, again2] = await Promise.all([runDueSchedules(first.deps), runDueSchedules(second.deps)]);
    expect(again1.fired + again2.fired).toBe(0);
  });
});
