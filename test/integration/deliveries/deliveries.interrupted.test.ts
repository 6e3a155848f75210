import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import type { StoreKind } from '../../helpers/stores.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { IN_FLIGHT_LEASE_MS, INTERRUPTED_ATTEMPT } from '../../../src/delivery-core/retry-policy.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';
import { INBOUND_SECRET, retryAppOptions, retryPass, START } from './retry-fixtures.js';
import { OutboxDeliverer, OUTBOX_CLAIM_MS } from '../../../src/delivery-core/index.js';
import { FairLimiter } from '../../../src/lib/fair-limiter.js';
import { findDeliveryTarget } from '../../../src/features/webhooks/delivery.js';

/** How long the receiver keeps the first attempt waiting: the lease runs out (on the app's clock) before it answers. */
const FIRST_ANSWER_DELAY_MS = 1500;

/**
 * A charged first attempt is recorded before it is sent. When its instance stops before the receiver answers (here: the
 * app's clock passes the in-flight lease while the receiver still holds the attempt), the retry worker finds it: the
 * call log gets its row with the charge, the history its attempt as interrupted, and a webhook with retries its next
 * attempt under the same webhook-id. Before, such a run was charged and then nowhere: no log row, no history, no retry.
 */
describeEachStore('deliveries whose instance stopped before the receiver answered', (kind: StoreKind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, retryAppOptions(clock, outbound, { timeoutMs: 10_000 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Starts `send`, waits until the receiver holds its first attempt, then lets the lease run out and runs the retry worker. */
  async function interrupt(path: string, send: () => Promise<unknown>) {
    const before = outbound.requestsTo(path).length;
    outbound.receiver().enqueue({ status: 200, body: 'late', delayMs: FIRST_ANSWER_DELAY_MS });
    const sending = send();
    await expect.poll(() => outbound.requestsTo(path).length, { timeout: 5000 }).toBe(before + 1);
    clock.advance(IN_FLIGHT_LEASE_MS + 1000);
    const pass = await retryPass(t);
    return { pass, sending };
  }

  const deliveriesOf = async (token: string, webhookId: string) =>
    ok(await t.inject({ method: 'GET', url: `/webhook/${webhookId}/deliveries?n=10`, headers: { 'x-token': token } }))
      .deliveries as Array<Record<string, any>>;
  const attemptsOf = async (token: string, webhookId: string, deliveryId: string) =>
    ok(
      await t.inject({
        method: 'GET',
        url: `/webhook/${webhookId}/deliveries/${deliveryId}`,
        headers: { 'x-token': token },
      }),
    ).attempts as Array<Record<string, any>>;
  const deliveryLogs = async (token: string) => {
    await t.deps.ledger.flush();
    return ok(await webhookApi(t, token).logs('webhook-delivery', 100)).logs as Array<Record<string, any>>;
  };

  it('a test delivery with retries: logged with its credit, attempt 1 interrupted, attempt 2 sent under the same id', async () => {
    clock.set(START);
    const token = await t.createToken(100);
    const api = webhookApi(t, token);
    const path = `/interrupted/${++n}`;
    ok(await api.create({ webhookId: 'lost-test', url: outbound.url(path), retry: { attempts: 2 } }));
    const { pass, sending } = await interrupt(path, () => api.test('lost-test'));
    expect(pass).toMatchObject({ sent: 1, succeeded: 1 });

    const [first, second] = outbound.requestsTo(path);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    const deliveryId = String(first?.headers['webhook-id']);
    const [delivery] = await deliveriesOf(token, 'lost-test');
    expect(delivery).toMatchObject({ id: deliveryId, trigger: 'test', status: 'success', attempts: 2 });
    const attempts = await attemptsOf(token, 'lost-test', deliveryId);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.error])).toEqual([
      [1, null, INTERRUPTED_ATTEMPT],
      [2, 200, null],
    ]);
    // The interrupted attempt's row carries the test's credit; the retry's is free.
    const logs = await deliveryLogs(token);
    expect(logs.map((row) => [row.deliveryId, row.cost, row.status_code])).toEqual([
      [deliveryId, 0, 200],
      [deliveryId, 1, 502],
    ]);
    expect(logs[1]?.error).toBe(`webhook call failed: ${INTERRUPTED_ATTEMPT}`);
    await sending;
  });

  it('a scheduled run without retries: logged with its 2 credits and ended as a failure, never sent again', async () => {
    clock.set(START);
    const token = await t.createToken(100);
    const api = webhookApi(t, token);
    const path = `/interrupted/${++n}`;
    ok(
      await api.create({
        webhookId: 'lost-run',
        url: outbound.url(path),
        schedule: { cron: '* * * * *', timezone: 'UTC' },
      }),
    );
    clock.set(START + 60_000);
    const { pass, sending } = await interrupt(path, () => runDueSchedules(t.deps));
    expect(pass).toMatchObject({ sent: 1, succeeded: 0 });
    expect(outbound.requestsTo(path)).toHaveLength(1);

    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    const [delivery] = await deliveriesOf(token, 'lost-run');
    expect(delivery).toMatchObject({
      id: deliveryId,
      trigger: 'schedule',
      status: 'failure',
      attempts: 1,
      lastError: INTERRUPTED_ATTEMPT,
    });
    const logs = await deliveryLogs(token);
    expect(logs.map((row) => [row.cost, row.status_code])).toEqual([[2, 502]]);
    // Nothing is due any more: the next pass sends nothing.
    clock.advance(IN_FLIGHT_LEASE_MS * 2);
    expect(await retryPass(t)).toMatchObject({ sent: 0 });
    await sending;
  });

  it('routed mail sent again from the outbox after its instance stopped carries the webhook-id it was first sent with', async () => {
    clock.set(START);
    const token = await t.createToken(100);
    const path = `/interrupted/${++n}`;
    const created = ok(await webhookApi(t, token).create({ webhookId: 'lost-mail', url: outbound.url(path) }));
    outbound.receiver().enqueue({ status: 200, body: 'late', delayMs: FIRST_ANSWER_DELAY_MS });
    const res = await t.inject({
      method: 'POST',
      url: `/inbound/raw?recipient=${encodeURIComponent(String(created.email))}`,
      headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': INBOUND_SECRET },
      payload: [
        'From: Ann <ann@sender.test>',
        'Subject: Sent twice',
        'Message-ID: <twice@sender.test>',
        '',
        'Hi.',
        '',
      ].join('\r\n'),
    });
    expect(res.statusCode, res.body).toBe(202);
    await expect.poll(() => outbound.requestsTo(path).length, { timeout: 5000 }).toBe(1);
    // The entry's claim runs out while the receiver holds the first send, as when its instance stopped: another
    // deliverer takes the entry over and sends it again.
    clock.advance(OUTBOX_CLAIM_MS + 1000);
    const takeover = new OutboxDeliverer(t.deps, {
      pool: new FairLimiter({ slots: 1, perKey: 1 }),
      findTarget: (owner, webhookId) => findDeliveryTarget(t.deps.store.read, owner, webhookId),
    });
    expect(await takeover.recover()).toBe(1);
    await takeover.close();
    await t.inbound?.idle();
    const [first, again] = outbound.requestsTo(path);
    expect(again?.text).toBe(first?.text);
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
  });
});
