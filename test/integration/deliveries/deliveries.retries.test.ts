import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, ManualClock, startTestApp, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { scratchDatabase, STORE_KINDS } from '../../helpers/stores.js';
import type { ScratchDatabase, StoreKind } from '../../helpers/stores.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import { DAY } from '../../../src/lib/time.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';
import { BASE_MS, INBOUND_SECRET, retryAppOptions, retryPass, START, targetsOf } from './retry-fixtures.js';
import { runDueRetries } from '../../../src/delivery-core/index.js';
import type { FindDeliveryTarget } from '../../../src/delivery-core/index.js';
import { insertOutbox } from '../../../src/delivery-core/outbox.queries.js';
import { OutboxDeliverer } from '../../../src/delivery-core/index.js';
import { findDeliveryTarget } from '../../../src/features/webhooks/delivery.js';
import { FairLimiter } from '../../../src/lib/fair-limiter.js';

const MESSAGE = [
  'From: Ann <ann@sender.test>',
  'Subject: Retried',
  'Message-ID: <retry-1@sender.test>',
  '',
  'Secret content.',
  '',
].join('\r\n');

const appOptions = (clock: ManualClock, outbound: OutboundFixture, database?: ScratchDatabase) =>
  retryAppOptions(clock, outbound, { database });

describeEachStore('delivery retries (opt-in) and redelivery', (kind: StoreKind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  let database: ScratchDatabase;
  let t: TestApp;
  let token: string;
  let api: ReturnType<typeof webhookApi>;
  let n = 0;
  let path: string;

  beforeEach(async () => {
    if (t === undefined) {
      database = await scratchDatabase(kind);
      t = await startTestApp(kind, appOptions(clock, outbound, database));
    }
    clock.set(START);
    token = await t.createToken(1000);
    api = webhookApi(t, token);
    path = `/retries/${++n}`;
    outbound.receiver().respondWith({ status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const detail = async (webhookId: string, deliveryId: string) =>
    ok(
      await t.inject({
        method: 'GET',
        url: `/webhook/${webhookId}/deliveries/${deliveryId}`,
        headers: { 'x-token': token },
      }),
    );
  /** The delivery as the list shows it (`attempts` a count there). */
  const summary = async (webhookId: string, deliveryId: string) => {
    const listed = ok(
      await t.inject({ method: 'GET', url: `/webhook/${webhookId}/deliveries?n=100`, headers: { 'x-token': token } }),
    );
    return (listed.deliveries as Array<Record<string, any>>).find((d) => d.id === deliveryId);
  };
  const redeliver = (webhookId: string, deliveryId: string) =>
    t.inject({
      method: 'POST',
      url: `/webhook/${webhookId}/deliveries/${deliveryId}/redeliver`,
      headers: { 'x-token': token },
    });
  const deliveryLogs = async () => {
    await t.deps.ledger.flush();
    return ok(await api.logs('webhook-delivery', 100)).logs as Array<Record<string, any>>;
  };
  /** Moves the clock to the delivery's next attempt and runs one worker pass. */
  const nextAttempt = async (webhookId: string, deliveryId: string, on = t) => {
    const due = (await detail(webhookId, deliveryId)).nextAttemptAt as string;
    clock.set(Date.parse(due));
    return retryPass(on);
  };

  it('shows, replaces and patches the policy; absent or 0 is one attempt and keeps the contract’s answer', async () => {
    const created = ok(await api.create({ webhookId: 'policy', url: outbound.url(path), retry: { attempts: 3 } }));
    expect(created.retry).toStrictEqual({ attempts: 3, backoff: 'exponential' });
    expect(ok(await api.get('policy')).retry).toStrictEqual({ attempts: 3, backoff: 'exponential' });
    expect(ok(await api.patch('policy', { url: outbound.url(path) })).retry).toStrictEqual({
      attempts: 3,
      backoff: 'exponential',
    });
    expect(ok(await api.patch('policy', { retry: null }))).not.toHaveProperty('retry');
    expect(ok(await api.patch('policy', { retry: { attempts: 8, backoff: 'exponential' } })).retry).toMatchObject({
      attempts: 8,
    });
    expect(ok(await api.put('policy', { url: outbound.url(path) }))).not.toHaveProperty('retry');
    expect(ok(await api.patch('policy', { retry: { attempts: 0 } }))).not.toHaveProperty('retry');
    const bad = await api.patch('policy', { retry: { attempts: 9 } });
    expect(bad.statusCode).toBe(400);
    expect((await api.patch('policy', { retry: { attempts: 1, backoff: 'linear' } })).statusCode).toBe(400);
  });

  it('a receiver failing twice then answering 200 gets three attempts with growing gaps, shown in the history, charged once', async () => {
    outbound.receiver().enqueue({ status: 503, body: 'busy' }, { status: 500, body: 'down' });
    await api.create({ webhookId: 'flaky', url: outbound.url(path), retry: { attempts: 5 } });
    const before = await balanceOf(t, token);
    expect(ok(await api.test('flaky'))).toStrictEqual({ success: false, message: 'webhook call failed: HTTP 503' });
    const [first] = outbound.requestsTo(path);
    const deliveryId = String(first?.headers['webhook-id']);
    const pending = await detail('flaky', deliveryId);
    expect(await summary('flaky', deliveryId)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 });
    const firstGap = Date.parse(pending.nextAttemptAt) - START;
    expect(firstGap).toBeGreaterThanOrEqual(BASE_MS * 0.8);
    expect(firstGap).toBeLessThanOrEqual(BASE_MS * 1.2);

    expect(await retryPass(t)).toMatchObject({ sent: 0 }); // not due yet
    expect(await nextAttempt('flaky', deliveryId)).toMatchObject({ sent: 1, succeeded: 0 });
    const second = await detail('flaky', deliveryId);
    expect(await summary('flaky', deliveryId)).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: 500 });
    const secondGap = Date.parse(second.nextAttemptAt) - Date.parse(second.lastAttemptAt);
    expect(secondGap).toBeGreaterThanOrEqual(BASE_MS * 2 * 0.8);
    expect(secondGap).toBeGreaterThan(firstGap);
    expect(await nextAttempt('flaky', deliveryId)).toMatchObject({ sent: 1, succeeded: 1 });

    const requests = outbound.requestsTo(path);
    expect(requests.map((r) => r.headers['webhook-id'])).toStrictEqual([deliveryId, deliveryId, deliveryId]);
    expect(new Set(requests.map((r) => r.headers['webhook-signature'])).size).toBe(3); // each signed afresh
    expect(new Set(requests.map((r) => r.text)).size).toBe(1); // the same body
    const done = await detail('flaky', deliveryId);
    expect(done).toMatchObject({ status: 'success', nextAttemptAt: null, lastStatusCode: 200 });
    expect(done.attempts.map((a: Record<string, unknown>) => [a.attempt, a.trigger, a.statusCode])).toStrictEqual([
      [1, 'test', 503],
      [2, 'test', 500],
      [3, 'test', 200],
    ]);
    expect(await balanceOf(t, token)).toBe((before ?? 0) - 1);
    const logs = await deliveryLogs();
    expect(logs.map((entry) => [entry.status_code, entry.cost])).toStrictEqual([
      [200, 0],
      [500, 0],
      [503, 1],
    ]);
    expect(await retryPass(t)).toMatchObject({ sent: 0 });
  });

  it('a 4xx other than 408 and 429 stops the retries; without a policy a 500 is one attempt (contract rule 2)', async () => {
    outbound.receiver().enqueue({ status: 500 }, { status: 404 });
    await api.create({ webhookId: 'gone', url: outbound.url(path), retry: { attempts: 5 } });
    ok(await api.test('gone'));
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    await nextAttempt('gone', deliveryId);
    expect(await summary('gone', deliveryId)).toMatchObject({
      status: 'failure',
      attempts: 2,
      lastStatusCode: 404,
      nextAttemptAt: null,
    });
    clock.advance(DAY);
    expect(await retryPass(t)).toMatchObject({ sent: 0 });
    expect(outbound.requestsTo(path)).toHaveLength(2);

    outbound.receiver().enqueue({ status: 500 });
    await api.create({ webhookId: 'single', url: outbound.url(`${path}/single`) });
    ok(await api.test('single'));
    const single = String(outbound.requestsTo(`${path}/single`)[0]?.headers['webhook-id']);
    expect(await summary('single', single)).toMatchObject({ status: 'failure', attempts: 1, nextAttemptAt: null });
  });

  it('the last allowed attempt failing ends the delivery as a failure', async () => {
    outbound.receiver().respondWith({ status: 502 });
    await api.create({ webhookId: 'budget', url: outbound.url(path), retry: { attempts: 2 } });
    ok(await api.test('budget'));
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    await nextAttempt('budget', deliveryId);
    await nextAttempt('budget', deliveryId);
    expect(await summary('budget', deliveryId)).toMatchObject({ status: 'failure', attempts: 3, nextAttemptAt: null });
    expect(outbound.requestsTo(path)).toHaveLength(3);
  });

  it('a restart between attempts loses none: a new app on the same database sends the due retry', async () => {
    outbound.receiver().enqueue({ status: 500 });
    await api.create({ webhookId: 'restart', url: outbound.url(path), retry: { attempts: 3 } });
    ok(await api.test('restart'));
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    const due = Date.parse((await detail('restart', deliveryId)).nextAttemptAt);
    await t.close();
    t = await startTestApp(kind, appOptions(clock, outbound, database));
    api = webhookApi(t, token);
    clock.set(due);
    expect(await retryPass(t)).toMatchObject({ sent: 1, succeeded: 1 });
    expect(outbound.requestsTo(path)).toHaveLength(2);
    expect(await summary('restart', deliveryId)).toMatchObject({ status: 'success', attempts: 2 });
  });

  it('redelivers a recorded delivery: same id and body, fresh signature, a new attempt, charged what it cost', async () => {
    await api.create({ webhookId: 'again', url: outbound.url(path) });
    ok(await api.test('again'));
    const [original] = outbound.requestsTo(path);
    const deliveryId = String(original?.headers['webhook-id']);
    const before = await balanceOf(t, token);
    outbound.receiver().enqueue({ status: 500 });
    clock.advance(5000);
    const failed = await redeliver('again', deliveryId);
    expect(failed.statusCode).toBe(200);
    expect(failed.headers['x-cost']).toBe('1');
    expect(failed.json()).toStrictEqual({
      success: false,
      attempt: 2,
      statusCode: 500,
      message: 'webhook call failed: HTTP 500',
    });
    const res = await redeliver('again', deliveryId);
    expect(res.json()).toStrictEqual({ success: true, attempt: 3, statusCode: 200, message: 'webhook delivered' });
    expect(await balanceOf(t, token)).toBe((before ?? 0) - 2);
    const requests = outbound.requestsTo(path);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.headers['webhook-id']).toBe(deliveryId);
    expect(requests[2]?.text).toBe(original?.text);
    expect(requests[2]?.headers['webhook-signature']).not.toBe(original?.headers['webhook-signature']);
    const one = await detail('again', deliveryId);
    expect(await summary('again', deliveryId)).toMatchObject({ trigger: 'test', status: 'success', attempts: 3 });
    expect(one.attempts.map((a: Record<string, unknown>) => a.trigger)).toStrictEqual([
      'test',
      'redelivery',
      'redelivery',
    ]);
    const logs = await deliveryLogs();
    expect(logs.slice(0, 2).map((entry) => [entry.status_code, entry.cost, entry.deliveryId])).toStrictEqual([
      [200, 1, deliveryId],
      [500, 1, deliveryId],
    ]);

    // Concurrent redeliveries each get their own attempt number.
    const both = await Promise.all([redeliver('again', deliveryId), redeliver('again', deliveryId)]);
    expect(both.map((r) => r.json().attempt).sort()).toStrictEqual([4, 5]);
  });

  it('answers 404 for an unknown delivery, 410 Delivery expired after 7 days, 402 when the wallet cannot pay (nothing sent)', async () => {
    await api.create({ webhookId: 'old', url: outbound.url(path) });
    ok(await api.test('old'));
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    const unknown = await redeliver('old', 'msg_unknown');
    expect([unknown.statusCode, unknown.body]).toStrictEqual([404, 'Delivery not found']);
    clock.advance(7 * DAY + 1);
    const expired = await redeliver('old', deliveryId);
    expect([expired.statusCode, expired.body]).toStrictEqual([410, 'Delivery expired']);
    expect(outbound.requestsTo(path)).toHaveLength(1);

    clock.set(START);
    const poor = await t.createToken(2); // the create and the test spend both credits
    const poorApi = webhookApi(t, poor);
    await poorApi.create({ webhookId: 'poor', url: outbound.url(`${path}/poor`) });
    ok(await poorApi.test('poor'));
    const poorId = String(outbound.requestsTo(`${path}/poor`)[0]?.headers['webhook-id']);
    const refused = await t.inject({
      method: 'POST',
      url: `/webhook/poor/deliveries/${poorId}/redeliver`,
      headers: { 'x-token': poor },
    });
    expect(refused.statusCode).toBe(402);
    expect(outbound.requestsTo(`${path}/poor`)).toHaveLength(1);
  });

  it('mail content is kept only while retries are due: gone (body NULL) once the delivery ends, and then not redeliverable (410)', async () => {
    outbound.receiver().enqueue({ status: 500 });
    const created = ok(await api.create({ webhookId: 'mail', url: outbound.url(path), retry: { attempts: 2 } }));
    const res = await t.inject({
      method: 'POST',
      url: `/inbound/raw?recipient=${encodeURIComponent(String(created.email))}`,
      headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': INBOUND_SECRET },
      payload: MESSAGE,
    });
    expect(res.statusCode, res.body).toBe(202);
    await t.inbound?.idle();
    await outbound.receiver().waitForRequests(1);
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    const bodyOf = async () =>
      (await t.deps.store.read.get<{ body: string | null }>('SELECT body FROM deliveries WHERE id = $1', [deliveryId]))
        ?.body;
    expect(await bodyOf()).toContain('Secret content.'); // pending: kept to be sent again
    await nextAttempt('mail', deliveryId);
    expect(await summary('mail', deliveryId)).toMatchObject({ trigger: 'email', status: 'success', attempts: 2 });
    expect(outbound.requestsTo(path)[1]?.text).toBe(outbound.requestsTo(path)[0]?.text);
    expect(await bodyOf()).toBeNull();
    const gone = await redeliver('mail', deliveryId);
    expect([gone.statusCode, gone.body]).toStrictEqual([410, 'Delivery expired']);
    const logs = await deliveryLogs();
    expect(logs.filter((entry) => entry.deliveryId === deliveryId).map((entry) => entry.cost)).toStrictEqual([0, 2]);
  });

  const rowOf = (deliveryId: string) =>
    t.deps.store.read.get<Record<string, unknown>>(
      'SELECT status, last_error, next_attempt_at FROM deliveries WHERE id = $1',
      [deliveryId],
    );
  const ENDED_BY_DELETE = { status: 'failure', last_error: 'webhook deleted', next_attempt_at: null };
  /** Routed mail for `webhookId` waiting in the outbox, its claim held until `claimUntil`. */
  const waitingMail = async (webhookId: string, claimUntil: number) => {
    const entry = {
      id: `msg_${webhookId}`,
      walletId: await walletIdOf(t.deps, token),
      webhookId,
      body: '{}',
      cost: 2,
      balance: 1,
    };
    await t.deps.store.write((tx) => insertOutbox(tx, entry, clock.now(), claimUntil));
    return () => t.deps.store.read.all('SELECT id FROM inbound_outbox WHERE id = $1', [entry.id]);
  };
  /** A webhook with retries whose test delivery failed: the delivery waits for its first retry, due at `due`. */
  const pendingDelivery = async (webhookId: string) => {
    outbound.receiver().enqueue({ status: 500 });
    await api.create({ webhookId, url: outbound.url(path), retry: { attempts: 2 } });
    ok(await api.test(webhookId));
    const deliveryId = String(outbound.requestsTo(path)[0]?.headers['webhook-id']);
    return { deliveryId, due: Date.parse((await detail(webhookId, deliveryId)).nextAttemptAt) };
  };

  it('a webhook deleted while a retry is pending ends the delivery at the delete, without a send', async () => {
    const { deliveryId, due } = await pendingDelivery('deleted');
    expect((await api.remove('deleted')).statusCode).toBe(200);
    expect(await rowOf(deliveryId)).toStrictEqual(ENDED_BY_DELETE);
    clock.set(due);
    expect(await retryPass(t)).toMatchObject({ sent: 0, abandoned: 0 });
    expect(await rowOf(deliveryId)).toStrictEqual(ENDED_BY_DELETE);
    expect(outbound.requestsTo(path)).toHaveLength(1);
  });

  it('a webhook created again under a deleted one’s id gets none of the old deliveries’ retries', async () => {
    const { deliveryId, due } = await pendingDelivery('again');
    await api.remove('again');
    ok(await api.create({ webhookId: 'again', url: outbound.url(`${path}/new`), retry: { attempts: 2 } }));
    clock.set(due);
    expect(await retryPass(t)).toMatchObject({ sent: 0 });
    expect(outbound.requestsTo(`${path}/new`)).toHaveLength(0);
    expect(await rowOf(deliveryId)).toStrictEqual(ENDED_BY_DELETE);
  });

  it('a retry claimed just as its webhook is deleted and created again sends nothing to the new one', async () => {
    const { deliveryId, due } = await pendingDelivery('race');
    clock.set(due);
    // The user deletes and creates the webhook again between the worker's claim and its look for the target.
    const findTarget: FindDeliveryTarget = async (walletId, webhookId) => {
      await api.remove(webhookId);
      ok(await api.create({ webhookId, url: outbound.url(`${path}/new`) }));
      return targetsOf(t)(walletId, webhookId);
    };
    expect(await runDueRetries(t.deps, { findTarget })).toMatchObject({ sent: 0, abandoned: 1 });
    expect(outbound.requestsTo(`${path}/new`)).toHaveLength(0);
    expect(await rowOf(deliveryId)).toMatchObject({ status: 'failure', last_error: 'webhook deleted' });
  });

  it('routed mail taken from the outbox just as its webhook is deleted and created again is not sent to the new one', async () => {
    await api.create({ webhookId: 'mailrace', url: outbound.url(path) });
    // Its claim has run out (the instance that received it stopped): recovery takes it over.
    const waiting = await waitingMail('mailrace', clock.now() - 1);
    const deliverer = new OutboxDeliverer(t.deps, {
      pool: new FairLimiter({ slots: 1, perKey: 1 }),
      // The user deletes and creates the webhook again between the claim and the look for the target.
      findTarget: async (owner, webhookId) => {
        await api.remove(webhookId);
        ok(await api.create({ webhookId, url: outbound.url(`${path}/new`) }));
        return findDeliveryTarget(t.deps.store.read, owner, webhookId);
      },
    });
    expect(await deliverer.recover()).toBe(1);
    await deliverer.close();
    expect(outbound.requestsTo(`${path}/new`)).toHaveLength(0);
    expect(await waiting()).toHaveLength(0);
  });

  it('routed mail still waiting in the outbox leaves it with its deleted webhook', async () => {
    const created = ok(await api.create({ webhookId: 'waiting', url: outbound.url(path) }));
    expect(created.email).toBeTypeOf('string');
    const waiting = await waitingMail('waiting', clock.now() + DAY);
    expect(await waiting()).toHaveLength(1);
    await api.remove('waiting');
    expect(await waiting()).toHaveLength(0);
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('delivery retries on two instances of one PostgreSQL', () => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  let first: TestApp;
  let second: TestApp;
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('sends each due attempt exactly once when both instances’ workers run at the same time', async () => {
    first = await startTestApp('postgres', appOptions(clock, outbound));
    second = await startTestApp('postgres', appOptions(clock, outbound, first.database));
    const token = await first.createToken(1000);
    const api = webhookApi(first, token);
    const path = '/two-instances';
    outbound.receiver().respondWith({ status: 500 });
    await api.create({ webhookId: 'shared', url: outbound.url(path), retry: { attempts: 2 } });
    const DELIVERIES = 40;
    for (let i = 0; i < DELIVERIES; i++) await api.test('shared');
    outbound.receiver().respondWith({ status: 200 });
    clock.advance(BASE_MS * 2);
    const reports = await Promise.all([retryPass(first), retryPass(second), retryPass(first), retryPass(second)]);
    expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBe(DELIVERIES);
    const ids = outbound.requestsTo(path).map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(DELIVERIES * 2);
    const perId = new Map<string, number>();
    for (const id of ids) perId.set(id, (perId.get(id) ?? 0) + 1);
    expect([...perId.values()].every((count) => count === 2)).toBe(true);
    const walletId = await walletIdOf(first.deps, token);
    const rows = await first.deps.store.read.all<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM deliveries WHERE wallet_id = $1',
      [walletId],
    );
    expect(rows.every((row) => row.status === 'success' && row.attempts === 2)).toBe(true);
  });
});
