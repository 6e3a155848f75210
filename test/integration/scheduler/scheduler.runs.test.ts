import { beforeEach, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { DAY, HOUR, MINUTE } from '../../../src/lib/time.js';
import { newSigningSecret } from '../../../src/delivery-core/signing.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { insertSchedules, scheduleState, SUITE_START as START, useSchedulerSuite } from './fixtures.js';
import { walletIdOf } from '../../helpers/app.js';

const iso = (ms: number) => new Date(ms).toISOString();

describeEachStore('scheduled runs', (kind) => {
  const suite = useSchedulerSuite(kind);
  const { clock, outbound, testApp } = suite;
  let token: string;
  let walletId: number;
  beforeEach(() => ({ token, walletId } = suite.wallet()));
  const schedule = (
    webhookId: string,
    fields: {
      cron: string;
      nextRunAt: number;
      active?: boolean;
      headers?: Record<string, string>;
      signingSecret?: string;
      timezone?: string;
    },
  ) => insertSchedules(testApp().deps, [{ walletId, webhookId, url: outbound.url(`/run/${webhookId}`), ...fields }]);
  const received = (webhookId: string) => outbound.requestsTo(`/run/${webhookId}`);
  const state = (webhookId: string) => scheduleState(testApp().deps, walletId, webhookId);
  const balance = async () =>
    (await testApp().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json().wallet as number;
  async function deliveryLogs() {
    await testApp().deps.ledger.flush();
    const res = await testApp().inject({
      method: 'GET',
      url: '/token/logs?type=webhook-delivery&n=100',
      headers: { 'x-token': token },
    });
    return res.json().logs as Array<Record<string, unknown>>;
  }

  it('fires a due run once, posts the exact scheduled-run payload, signed, and charges 2 credits', async () => {
    const secret = newSigningSecret();
    await schedule('every5', {
      cron: '*/5 * * * *',
      nextRunAt: START,
      headers: { 'X-Team': 'ops' },
      signingSecret: secret,
    });
    clock.advance(250); // the pass runs a little after the run's time
    const report = await runDueSchedules(testApp().deps);
    expect(report).toEqual({ fired: 1, succeeded: 1, failed: 0, skipped: 0 });

    const [request, ...more] = received('every5');
    expect(more).toHaveLength(0);
    expect(request?.method).toBe('POST');
    const expected = {
      type: 'scheduled_webhook_run',
      webhookId: 'every5',
      scheduledFor: '2026-06-01T12:00:00.000Z',
      executedAt: '2026-06-01T12:00:00.250Z',
      walletHash: sha256Hex(token),
    };
    expect(request?.text).toBe(JSON.stringify(expected));
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'coinop-webhook/0.1.0',
      'x-team': 'ops',
    });
    const id = String(request?.headers['webhook-id']);
    const timestamp = Number(request?.headers['webhook-timestamp']);
    expect(timestamp).toBe(Math.floor((START + 250) / 1000));
    expect(request?.headers['webhook-signature']).toBe(
      new Webhook(secret).sign(id, new Date(timestamp * 1000), request?.text ?? ''),
    );

    expect(await balance()).toBe(97); // 100 − 2 for the run − 1 for GET /token
    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({
      method: 'POST',
      path: 'every5',
      endpoint: 'webhook-delivery',
      status_code: 200,
      cost: 2,
      balance: 98,
    });
    expect(entry).not.toHaveProperty('error');
    expect(await state('every5')).toEqual({
      active: 1,
      next_run_at: START + 5 * MINUTE,
      last_run_at: START + 250,
      last_status: 'success',
      last_error: null,
    });

    // Nothing more is due until 12:05; then exactly one more run.
    expect((await runDueSchedules(testApp().deps)).fired).toBe(0);
    clock.set(START + 5 * MINUTE);
    expect((await runDueSchedules(testApp().deps)).fired).toBe(1);
    expect(received('every5').map((r) => JSON.parse(r.text).scheduledFor)).toEqual([
      '2026-06-01T12:00:00.000Z',
      '2026-06-01T12:05:00.000Z',
    ]);
  });

  it('signs every scheduled call with the secret its webhook was issued, verifiable by the receiver (Standard Webhooks)', async () => {
    const headers = { 'x-token': token, 'content-type': 'application/json' };
    const create = async (webhookId: string) => {
      const payload = JSON.stringify({
        webhookId,
        url: outbound.url(`/run/${webhookId}`),
        schedule: { cron: '*/5 * * * *', timezone: 'UTC' },
      });
      const res = await testApp().inject({ method: 'POST', url: '/webhook', headers, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().signingSecret as string;
    };
    const secrets = { first: await create('first'), second: await create('second') };
    clock.set(START + 5 * MINUTE);
    expect((await runDueSchedules(testApp().deps)).fired).toBe(2);

    // The receiver's side: verify() also checks webhook-timestamp against Date.now, so it reads the suite's clock.
    const verify = (secret: string, webhookId: string): unknown => {
      const [request] = received(webhookId);
      const signed = { 'webhook-id': '', 'webhook-timestamp': '', 'webhook-signature': '' };
      for (const name of Object.keys(signed) as Array<keyof typeof signed>)
        signed[name] = String(request?.headers[name] ?? '');
      const now = vi.spyOn(Date, 'now').mockReturnValue(clock.now());
      try {
        return new Webhook(secret).verify(request?.text ?? '', signed);
      } finally {
        now.mockRestore();
      }
    };
    expect(verify(secrets.first, 'first')).toMatchObject({ type: 'scheduled_webhook_run', webhookId: 'first' });
    expect(verify(secrets.second, 'second')).toMatchObject({ type: 'scheduled_webhook_run', webhookId: 'second' });
    // Each call carries its own webhook's signature, not another's.
    expect(() => verify(secrets.second, 'first')).toThrow(/No matching signature/);
    expect(() => verify(secrets.first, 'second')).toThrow(/No matching signature/);
  });

  it('does not fire a run that is not due yet', async () => {
    await schedule('later', { cron: '1 12 * * *', nextRunAt: START + MINUTE });
    clock.advance(MINUTE - 1);
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 0, succeeded: 0, failed: 0, skipped: 0 });
    expect(received('later')).toHaveLength(0);
    expect(await state('later')).toMatchObject({ next_run_at: START + MINUTE, last_run_at: null });
    expect(await balance()).toBe(99);
  });

  it('never fires an inactive schedule, however overdue', async () => {
    await schedule('paused', { cron: '* * * * *', nextRunAt: START - 10 * MINUTE, active: false });
    expect((await runDueSchedules(testApp().deps)).fired).toBe(0);
    expect(received('paused')).toHaveLength(0);
    expect(await state('paused')).toEqual({
      active: 0,
      next_run_at: START - 10 * MINUTE,
      last_run_at: null,
      last_status: null,
      last_error: null,
    });
  });

  it('records failure "Insufficient credits" on an empty wallet, sends nothing and keeps the next run scheduled', async () => {
    const poor = await testApp().createToken(1);
    const poorId = await walletIdOf(testApp().deps, poor);
    await insertSchedules(testApp().deps, [
      { walletId: poorId, webhookId: 'broke', url: outbound.url('/run/broke'), cron: '*/10 * * * *', nextRunAt: START },
    ]);
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 1, succeeded: 0, failed: 1, skipped: 0 });
    expect(received('broke')).toHaveLength(0);
    expect(await scheduleState(testApp().deps, poorId, 'broke')).toEqual({
      active: 1,
      next_run_at: START + 10 * MINUTE,
      last_run_at: START,
      last_status: 'failure',
      last_error: 'Insufficient credits',
    });
    const wallet = await testApp().inject({ method: 'GET', url: '/token', headers: { 'x-token': poor } });
    expect(wallet.json().wallet).toBe(0); // nothing taken by the run; GET /token took the last credit
    await testApp().deps.ledger.flush();
    const logs = (
      await testApp().inject({ method: 'GET', url: '/token/logs?type=webhook-delivery', headers: { 'x-token': poor } })
    ).json().logs;
    expect(logs).toEqual([
      expect.objectContaining({ path: 'broke', status_code: 402, error: 'Insufficient credits', cost: 0, balance: 1 }),
    ]);
  });

  it('records failure with the cause when the callback answers 500, charges the run and stays active', async () => {
    outbound.receiver().enqueue({ status: 500, body: 'boom' });
    await schedule('flaky', { cron: '0 * * * *', nextRunAt: START });
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 1, succeeded: 0, failed: 1, skipped: 0 });
    expect(received('flaky')).toHaveLength(1);
    expect(await state('flaky')).toEqual({
      active: 1,
      next_run_at: START + HOUR,
      last_run_at: START,
      last_status: 'failure',
      last_error: 'HTTP 500',
    });
    expect(await balance()).toBe(97);
    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({
      path: 'flaky',
      status_code: 500,
      error: 'webhook call failed: HTTP 500',
      cost: 2,
      balance: 98,
    });
    // No retry: the next run is the next occurrence.
    expect((await runDueSchedules(testApp().deps)).fired).toBe(0);
    expect(received('flaky')).toHaveLength(1);
  });

  it('records the cause when the callback cannot be reached', async () => {
    await insertSchedules(testApp().deps, [
      { walletId, webhookId: 'refused', url: 'https://10.255.255.1/hook', cron: '0 * * * *', nextRunAt: START },
    ]);
    await runDueSchedules(testApp().deps);
    expect(await state('refused')).toMatchObject({ active: 1, last_status: 'failure', last_error: 'refused address' });
  });

  it('fires a run missed 30 minutes ago once, for its own time, then moves to the next future occurrence', async () => {
    await schedule('missed30', { cron: '15 * * * *', nextRunAt: Date.parse('2026-06-01T11:15:00.000Z') });
    clock.set(Date.parse('2026-06-01T11:45:00.000Z'));
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 1, succeeded: 1, failed: 0, skipped: 0 });
    expect(received('missed30').map((r) => JSON.parse(r.text))).toEqual([
      expect.objectContaining({ scheduledFor: '2026-06-01T11:15:00.000Z', executedAt: '2026-06-01T11:45:00.000Z' }),
    ]);
    expect(await state('missed30')).toMatchObject({
      next_run_at: Date.parse('2026-06-01T12:15:00.000Z'),
      last_status: 'success',
    });
  });

  it('skips a run missed 3 hours ago: no delivery, no charge, next run in the future', async () => {
    await schedule('missed3h', { cron: '0 9 * * *', nextRunAt: Date.parse('2026-06-01T09:00:00.000Z') });
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 0, succeeded: 0, failed: 0, skipped: 1 });
    expect(received('missed3h')).toHaveLength(0);
    expect(await state('missed3h')).toEqual({
      active: 1,
      next_run_at: START + DAY - 3 * HOUR,
      last_run_at: null,
      last_status: null,
      last_error: null,
    });
    expect(await balance()).toBe(99);
  });

  it('fires once, not five times, after five missed minutes of "* * * * *"', async () => {
    await schedule('minutely', { cron: '* * * * *', nextRunAt: START - 5 * MINUTE });
    expect((await runDueSchedules(testApp().deps)).fired).toBe(1);
    expect((await runDueSchedules(testApp().deps)).fired).toBe(0);
    expect(received('minutely').map((r) => JSON.parse(r.text).scheduledFor)).toEqual([iso(START - 5 * MINUTE)]);
    expect(await state('minutely')).toMatchObject({ next_run_at: START + MINUTE });
    expect(await balance()).toBe(97);
  });

  it('evaluates the cron in the schedule time zone', async () => {
    // 09:00 in New York on 2026-06-01 is 13:00 UTC (daylight time).
    await schedule('ny', {
      cron: '0 9 * * *',
      timezone: 'America/New_York',
      nextRunAt: Date.parse('2026-06-01T13:00:00.000Z'),
    });
    clock.set(Date.parse('2026-06-01T13:00:00.000Z'));
    expect((await runDueSchedules(testApp().deps)).fired).toBe(1);
    expect(await state('ny')).toMatchObject({ next_run_at: Date.parse('2026-06-02T13:00:00.000Z') });
  });

  it('stops a schedule whose stored cron no longer parses, recording why, without charging', async () => {
    await schedule('broken', { cron: 'not a cron', nextRunAt: START });
    expect(await runDueSchedules(testApp().deps)).toEqual({ fired: 0, succeeded: 0, failed: 0, skipped: 1 });
    const after = await state('broken');
    expect(after).toMatchObject({ active: 1, next_run_at: null, last_status: 'failure' });
    expect(after?.last_error).toMatch(/^Invalid schedule/);
    expect(await balance()).toBe(99);
  });

  it('never fires a run twice when passes overlap on one instance', async () => {
    const rich = await testApp().createToken(1000);
    const richId = await walletIdOf(testApp().deps, rich);
    const rows = Array.from({ length: 60 }, (_, i) => ({
      walletId: richId,
      webhookId: `overlap-${i}`,
      url: outbound.url('/run/overlap'),
      cron: '* * * * *',
      nextRunAt: START,
    }));
    await insertSchedules(testApp().deps, rows);
    const reports = await Promise.all(
      [1, 2, 3].map(() => runDueSchedules(testApp().deps, { batchSize: 7, concurrency: 5 })),
    );
    expect(reports.reduce((sum, r) => sum + r.fired, 0)).toBe(60);
    const ids = received('overlap').map((r) => JSON.parse(r.text).webhookId as string);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const wallet = await testApp().inject({ method: 'GET', url: '/token', headers: { 'x-token': rich } });
    expect(wallet.json().wallet).toBe(1000 - 120 - 1);
  });
});
