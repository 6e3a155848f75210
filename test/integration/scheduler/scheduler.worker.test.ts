import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { MINUTE } from '../../../src/lib/time.js';
import { runDueSchedules, startScheduler } from '../../../src/features/scheduler/scheduler.js';
import { insertSchedules, scheduleState, SUITE_START as START, useSchedulerSuite } from './fixtures.js';

describeEachStore('scheduler worker', (kind) => {
  const suite = useSchedulerSuite(kind);
  const { clock, outbound, testApp } = suite;
  let token: string;
  let walletId: number;
  beforeEach(() => ({ token, walletId } = suite.wallet()));

  it('fires due runs on its own once started, and stop() waits for the run in flight to be recorded', async () => {
    outbound.receiver().enqueue({ status: 200, delayMs: 300 });
    await insertSchedules(testApp().deps, [
      { walletId, webhookId: 'auto', url: outbound.url('/worker/auto'), cron: '* * * * *', nextRunAt: START },
    ]);
    const stop = startScheduler(testApp().deps, 'test-instance', { intervalMs: 50 });
    let stopped = false;
    try {
      const before = outbound.receiver().requests.length;
      await outbound.receiver().waitForRequests(before + 1, 3000);
    } finally {
      await stop().then(() => (stopped = true));
    }
    expect(stopped).toBe(true);
    // The answer came 300 ms after the request; stop() resolved only once the outcome was written.
    expect(await scheduleState(testApp().deps, walletId, 'auto')).toMatchObject({
      last_status: 'success',
      last_run_at: START,
      next_run_at: START + MINUTE,
    });
    expect(outbound.requestsTo('/worker/auto')).toHaveLength(1);
  });

  it('runs a pass at once when woken', async () => {
    const stop = startScheduler(testApp().deps, 'test-instance', { intervalMs: 60 * MINUTE });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the start-up pass is over
      await insertSchedules(testApp().deps, [
        { walletId, webhookId: 'woken', url: outbound.url('/worker/woken'), cron: '* * * * *', nextRunAt: START },
      ]);
      const before = outbound.receiver().requests.length;
      stop.wake();
      await outbound.receiver().waitForRequests(before + 1, 3000);
      expect(outbound.requestsTo('/worker/woken')).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it('fires a schedule created through POST /webhook and shows the outcome on GET /webhook/{id}', async () => {
    const headers = { 'x-token': token, 'content-type': 'application/json' };
    const created = await testApp().inject({
      method: 'POST',
      url: '/webhook',
      headers,
      payload: JSON.stringify({
        webhookId: 'api',
        url: outbound.url('/worker/api'),
        schedule: { cron: '*/15 * * * *', timezone: 'Europe/Berlin' },
      }),
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().schedule).toMatchObject({ active: true, nextRunAt: '2026-06-01T12:15:00.000Z' });

    clock.set(Date.parse('2026-06-01T12:15:00.000Z'));
    expect((await runDueSchedules(testApp().deps)).fired).toBe(1);
    const [request] = outbound.requestsTo('/worker/api');
    expect(JSON.parse(request?.text ?? '{}')).toMatchObject({
      webhookId: 'api',
      scheduledFor: '2026-06-01T12:15:00.000Z',
    });
    expect(request?.headers).toHaveProperty('webhook-signature');

    const read = await testApp().inject({ method: 'GET', url: '/webhook/api', headers });
    expect(read.json().schedule).toEqual({
      cron: '*/15 * * * *',
      timezone: 'Europe/Berlin',
      active: true,
      nextRunAt: '2026-06-01T12:30:00.000Z',
      lastRunAt: '2026-06-01T12:15:00.000Z',
      lastStatus: 'success',
    });

    // Paused through the API: the next occurrence passes without a run.
    const paused = await testApp().inject({
      method: 'PATCH',
      url: '/webhook/api',
      headers,
      payload: JSON.stringify({ schedule: { active: false } }),
    });
    expect(paused.statusCode).toBe(200);
    clock.set(Date.parse('2026-06-01T12:30:00.000Z'));
    expect((await runDueSchedules(testApp().deps)).fired).toBe(0);
    expect(outbound.requestsTo('/worker/api')).toHaveLength(1);
  });
});
