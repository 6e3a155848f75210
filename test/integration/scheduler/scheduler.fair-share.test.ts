import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { walletIdOf } from '../../helpers/app.js';
import { SECOND } from '../../../src/lib/time.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { insertSchedules, SUITE_START as START, useSchedulerSuite } from './fixtures.js';
import { answerSlowPathLate } from '../../helpers/https-receiver.js';
import type { SlowAnswers } from '../../helpers/https-receiver.js';

const SLOW_ANSWER_MS = 3000;
const HOSTILE_SCHEDULES = 100;
const { slots: RUN_SLOTS, perKey: RUNS_PER_WALLET } = POOL_SIZES.scheduledRuns;

describeEachStore('scheduled runs: one wallet cannot take the scheduler from others', (kind) => {
  const suite = useSchedulerSuite(kind);
  const { clock, outbound, testApp } = suite;
  /** Slow deliveries being answered now, and the most at once. */
  let slow: SlowAnswers = { now: 0, most: 0 };

  beforeAll(() => {
    slow = answerSlowPathLate(outbound.receiver(), SLOW_ANSWER_MS);
  });

  it("a wallet's many runs to a slow receiver hold only its share; another wallet's run due later goes out at once; the rest wait for their own wallet", async () => {
    const { walletId: victim } = suite.wallet();
    const hostile = await walletIdOf(testApp().deps, await testApp().createToken(1000));
    // The hostile runs are due first, so they are first in line.
    const hostileRows = Array.from({ length: HOSTILE_SCHEDULES }, (_, i) => ({
      walletId: hostile,
      webhookId: `slow${i}`,
      url: outbound.url('/slow'),
      cron: '* * * * *',
      nextRunAt: START - 30 * SECOND,
    }));
    await insertSchedules(testApp().deps, [
      ...hostileRows,
      { walletId: victim, webhookId: 'fast', url: outbound.url('/fast'), cron: '* * * * *', nextRunAt: START },
    ]);
    clock.advance(250);

    let stop = false;
    const started = performance.now();
    const pass = runDueSchedules(testApp().deps, { shouldStop: () => stop });
    const deadline = started + 10_000;
    while (outbound.requestsTo('/fast').length === 0 && performance.now() < deadline) await sleep(10);
    const victimMs = performance.now() - started;
    stop = true;
    const report = await pass;

    expect(outbound.requestsTo('/fast')).toHaveLength(1);
    expect(victimMs).toBeLessThan(1000);
    expect(slow.most).toBe(RUNS_PER_WALLET);
    // Only the hostile runs with room were claimed; the others are still due, for the hostile wallet's later turns.
    expect(report.fired).toBe(RUNS_PER_WALLET + 1);
    const stillDue = await testApp().deps.store.read.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM webhooks WHERE wallet_id = $1 AND next_run_at <= $2',
      [hostile, clock.now()],
    );
    expect(Number(stillDue?.n)).toBe(HOSTILE_SCHEDULES - RUNS_PER_WALLET);
  }, 30_000);

  it("busy wallets holding every shared slot with slow runs leave another wallet's run to go out at once, in the reserve", async () => {
    const { walletId: victim } = suite.wallet();
    const busyWallets = RUN_SLOTS / RUNS_PER_WALLET;
    const rows = [];
    for (let w = 0; w < busyWallets; w++) {
      const walletId = await walletIdOf(testApp().deps, await testApp().createToken(1000));
      // Each has more slow runs due, first in line, than its share: together they can take every shared slot.
      for (let i = 0; i < RUNS_PER_WALLET + 2; i++)
        rows.push({
          walletId,
          webhookId: `slow${i}`,
          url: outbound.url('/slow'),
          cron: '* * * * *',
          nextRunAt: START - 30 * SECOND,
        });
    }
    await insertSchedules(testApp().deps, [
      ...rows,
      { walletId: victim, webhookId: 'fast', url: outbound.url('/victim'), cron: '* * * * *', nextRunAt: START },
    ]);
    clock.advance(250);

    let stop = false;
    const started = performance.now();
    const pass = runDueSchedules(testApp().deps, { shouldStop: () => stop });
    const deadline = started + 10_000;
    while (outbound.requestsTo('/victim').length === 0 && performance.now() < deadline) await sleep(10);
    const victimMs = performance.now() - started;
    // Slots held in the shared pool by the busy wallets when the victim's run went out (a run holds its slot from
    // before its delivery is recorded and sent, so this counts runs whose request may not have arrived yet).
    const pool = testApp().deps.pools.scheduledRuns;
    const busyHeld = pool.active - pool.activeOf(victim);
    stop = true;
    const report = await pass;

    expect(outbound.requestsTo('/victim')).toHaveLength(1);
    // Before, it waited for a slow run to end (SLOW_ANSWER_MS).
    expect(victimMs).toBeLessThan(1000);
    expect(busyHeld).toBe(RUN_SLOTS);
    // The reserve went to the wallet holding none, not to the busy wallets' runs beyond their share.
    expect(slow.most).toBe(RUN_SLOTS);
    expect(report.fired).toBe(RUN_SLOTS + 1);
  }, 30_000);
});
