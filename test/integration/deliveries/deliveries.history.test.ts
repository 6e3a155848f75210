import { readFileSync } from 'node:fs';
import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';
import { createOutbound } from '../../../src/outbound/outbound-client.js';
import { DAY, MINUTE } from '../../../src/lib/time.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { sweep } from '../../../src/retention.js';
import { insertSchedules } from '../scheduler/fixtures.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DELIVERY_ID = /^msg_[A-Za-z0-9]+$/;
const INBOUND_SECRET = 'relay-secret-for-delivery-history';
/** Short, so a receiver that never answers is a timeout within the test. */
const TIMEOUT_MS = 800;

const MESSAGE = [
  'From: Ann <ann@sender.test>',
  'Subject: History',
  'Message-ID: <history-1@sender.test>',
  '',
  'Kept for a week.',
  '',
].join('\r\n');

describeEachStore('delivery history: every delivery and its attempts, GET /webhook/{id}/deliveries', (kind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  const get = useTestApp(kind, {
    clock,
    env: { ...outbound.env, INBOUND_SECRET, MAIL_DOMAIN: 'hooks.coinop.test' },
    overrides: (config) => ({
      outbound: createOutbound({
        allowCidrs: config.outboundAllowCidrs,
        extraCaPem: readFileSync(outbound.env.OUTBOUND_CA_FILE ?? '', 'utf8'),
        userAgent: 'coinop-webhook/0.1.0',
        timeoutMs: TIMEOUT_MS,
      }),
    }),
  });
  let token: string;
  let api: ReturnType<typeof webhookApi>;
  let n = 0;
  let path: string;
  beforeEach(async () => {
    clock.set(START);
    token = await get().createToken(1000);
    api = webhookApi(get(), token);
    path = `/history/${++n}`;
    outbound.receiver().respondWith({ status: 200, body: 'ok' });
  });

  const list = (webhookId: string, query = '', who = token) =>
    get().inject({ method: 'GET', url: `/webhook/${webhookId}/deliveries${query}`, headers: { 'x-token': who } });
  const detail = (webhookId: string, deliveryId: string, who = token) =>
    get().inject({ method: 'GET', url: `/webhook/${webhookId}/deliveries/${deliveryId}`, headers: { 'x-token': who } });
  const deliveries = async (webhookId: string, query = '') =>
    ok(await list(webhookId, query)).deliveries as Array<Record<string, any>>;
  const deliveryLogs = async () => {
    await get().deps.ledger.flush();
    return ok(await api.logs('webhook-delivery', 100)).logs as Array<Record<string, any>>;
  };
  const create = async (webhookId: string, url = outbound.url(path)) => ok(await api.create({ webhookId, url }));

  it('records a test delivery: its id is the webhook-id sent, with the exact body, the answer’s start, and a log row naming it', async () => {
    outbound.receiver().enqueue({ status: 200, body: 'thanks' });
    await create('hist-ok');
    expect(ok(await api.test('hist-ok'))).toStrictEqual({ success: true, message: 'test webhook delivered' });
    const [request] = outbound.requestsTo(path);
    const deliveryId = String(request?.headers['webhook-id']);
    expect(deliveryId).toMatch(DELIVERY_ID);

    const res = await list('hist-ok');
    expect(res.headers).toMatchObject({ 'x-cost': '0' });
    expect(res.json()).toStrictEqual({
      deliveries: [
        {
          id: deliveryId,
          trigger: 'test',
          createdAt: new Date(START).toISOString(),
          status: 'success',
          attempts: 1,
          lastAttemptAt: new Date(START).toISOString(),
          nextAttemptAt: null,
          lastStatusCode: 200,
          lastError: null,
        },
      ],
      n: 1,
    });

    const one = ok(await detail('hist-ok', deliveryId));
    expect(one).toMatchObject({ id: deliveryId, trigger: 'test', status: 'success', lastStatusCode: 200 });
    expect(one.body).toBe(request?.text);
    expect(one.attempts).toStrictEqual([
      {
        attempt: 1,
        trigger: 'test',
        at: new Date(START).toISOString(),
        statusCode: 200,
        ms: expect.any(Number),
        error: null,
        responseBody: 'thanks',
      },
    ]);

    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({ path: 'hist-ok', status_code: 200, cost: 1, deliveryId });
    expect(entry).not.toHaveProperty('error');
  });

  it('records a 500 with the first 1 KiB of the answer; the failed test’s log row has the receiver’s status and the cause (the answer stays 200)', async () => {
    outbound.receiver().enqueue({ status: 500, body: `${'é'.repeat(511)}${'x'.repeat(5000)}` });
    await create('hist-500');
    const res = await api.test('hist-500');
    expect(ok(res)).toStrictEqual({ success: false, message: 'webhook call failed: HTTP 500' });
    const [summary] = await deliveries('hist-500');
    expect(summary).toMatchObject({
      trigger: 'test',
      status: 'failure',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
    });
    const one = ok(await detail('hist-500', summary?.id));
    // 511 two-byte characters and 2 bytes of the rest: exactly 1024 bytes.
    expect(one.attempts).toMatchObject([
      { attempt: 1, statusCode: 500, error: 'HTTP 500', responseBody: `${'é'.repeat(511)}xx` },
    ]);

    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({
      path: 'hist-500',
      status_code: 500,
      error: 'webhook call failed: HTTP 500',
      cost: 1,
      balance: 998,
      deliveryId: summary?.id,
    });
  });

  it('records a refused connection and a timeout as failed attempts without a status, each with its cause', async () => {
    await create('hist-refused', 'https://127.0.0.1:1/hook');
    expect(ok(await api.test('hist-refused')).success).toBe(false);
    const [refused] = await deliveries('hist-refused');
    expect(refused).toMatchObject({ status: 'failure', lastStatusCode: null, lastError: expect.stringMatching(/\S/) });
    expect(ok(await detail('hist-refused', refused?.id)).attempts).toMatchObject([
      { attempt: 1, statusCode: null, responseBody: null },
    ]);

    outbound.receiver().enqueue({ hang: true });
    await create('hist-timeout', outbound.url(`${path}/hang`));
    expect(ok(await api.test('hist-timeout'))).toStrictEqual({
      success: false,
      message: 'webhook call failed: timeout after 0.8s',
    });
    const [timedOut] = await deliveries('hist-timeout');
    expect(timedOut).toMatchObject({ status: 'failure', lastStatusCode: null, lastError: 'timeout after 0.8s' });
    const [attempt] = ok(await detail('hist-timeout', timedOut?.id)).attempts as Array<Record<string, any>>;
    expect(attempt).toMatchObject({ statusCode: null, error: 'timeout after 0.8s', responseBody: null });
    expect(attempt?.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);

    const logs = await deliveryLogs();
    expect(logs.map((entry) => [entry.path, entry.status_code, entry.deliveryId])).toEqual([
      ['hist-timeout', 502, timedOut?.id],
      ['hist-refused', 502, refused?.id],
    ]);
    expect(logs[0]?.error).toBe('webhook call failed: timeout after 0.8s');
  });

  it('records scheduled runs (trigger schedule), a success and a 500, with the exact body sent', async () => {
    const walletId = await walletIdOf(get().deps, token);
    await insertSchedules(get().deps, [
      { walletId, webhookId: 'hist-cron', url: outbound.url(path), cron: '* * * * *', nextRunAt: START },
    ]);
    expect((await runDueSchedules(get().deps)).succeeded).toBe(1);
    outbound.receiver().enqueue({ status: 500, body: 'down' });
    clock.advance(MINUTE);
    expect((await runDueSchedules(get().deps)).failed).toBe(1);

    const list = await deliveries('hist-cron');
    expect(list.map((d) => [d.trigger, d.status, d.lastStatusCode, d.createdAt])).toEqual([
      ['schedule', 'failure', 500, new Date(START + MINUTE).toISOString()],
      ['schedule', 'success', 200, new Date(START).toISOString()],
    ]);
    const requests = outbound.requestsTo(path);
    expect(list.map((d) => d.id)).toEqual(requests.map((r) => r.headers['webhook-id']).reverse());
    expect(ok(await detail('hist-cron', list[1]?.id)).body).toBe(requests[0]?.text);
    expect(ok(await detail('hist-cron', list[0]?.id)).attempts).toMatchObject([
      { statusCode: 500, responseBody: 'down', error: 'HTTP 500' },
    ]);
    const logs = await deliveryLogs();
    expect(logs.map((entry) => [entry.status_code, entry.cost, entry.deliveryId])).toEqual([
      [500, 2, list[0]?.id],
      [200, 2, list[1]?.id],
    ]);
  });

  it('records inbound mail deliveries (trigger email), keeping none of the mail content (contract rule 5: not retained after delivery)', async () => {
    const created = await create('hist-mail');
    const res = await get().inject({
      method: 'POST',
      url: `/inbound/raw?recipient=${encodeURIComponent(String(created.email))}`,
      headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': INBOUND_SECRET },
      payload: MESSAGE,
    });
    expect(res.statusCode, res.body).toBe(202);
    await get().inbound?.idle();
    const [request] = await outbound.receiver().waitForRequests(1);
    const [delivery] = await deliveries('hist-mail');
    expect(delivery).toMatchObject({
      trigger: 'email',
      status: 'success',
      attempts: 1,
      lastStatusCode: 200,
      createdAt: expect.stringMatching(ISO),
    });
    const mailRequest = outbound.requestsTo(path)[0] ?? request;
    expect(delivery?.id).toBe(mailRequest?.headers['webhook-id']);
    expect(JSON.parse(String(mailRequest?.text))).toMatchObject({
      subject: 'History',
      text: expect.stringContaining('Kept for a week.'),
    });
    const one = ok(await detail('hist-mail', delivery?.id));
    expect(one.body).toBeNull();
    expect(JSON.stringify(one)).not.toContain('Kept for a week.');
    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({ path: 'hist-mail', cost: 2, deliveryId: delivery?.id });
  });

  it('records low-balance notifications (trigger low_balance), shown under no webhook, their log row naming them', async () => {
    await putSettings(get(), token, { low_balance_threshold: 998, low_balance_webhook: { url: outbound.url(path) } }); // 999 left
    await spendCredits(get(), token, 1); // 998: at the threshold
    clock.advance(1500);
    expect((await sendPendingLowBalance(get().deps)).webhooks).toBe(1);
    const walletId = await walletIdOf(get().deps, token);
    const rows = await get().deps.store.read.all<Record<string, unknown>>(
      'SELECT id, webhook_id, trigger, status, attempts, last_status_code, body FROM deliveries WHERE wallet_id = $1',
      [walletId],
    );
    const [request] = outbound.requestsTo(path);
    expect(rows).toEqual([
      {
        id: expect.stringMatching(DELIVERY_ID),
        webhook_id: 'low-balance',
        trigger: 'low_balance',
        status: 'success',
        attempts: 1,
        last_status_code: 200,
        body: request?.text,
      },
    ]);
    const [entry] = await deliveryLogs();
    expect(entry).toMatchObject({ path: 'low-balance', cost: 0, deliveryId: rows[0]?.id });
    // A webhook named like the log path does not show them.
    await create('low-balance');
    expect(await deliveries('low-balance')).toEqual([]);
  });

  it('lists newest first, filters by status, bounds n, and refuses a bad n or status with 400', async () => {
    await create('hist-list');
    const ids: string[] = [];
    for (const status of [200, 500, 200]) {
      outbound.receiver().enqueue({ status });
      await api.test('hist-list');
      ids.push(String(outbound.requestsTo(path).at(-1)?.headers['webhook-id']));
      clock.advance(1000);
    }
    expect((await deliveries('hist-list')).map((d) => d.id)).toEqual([...ids].reverse());
    expect((await deliveries('hist-list', '?status=failure')).map((d) => d.id)).toEqual([ids[1]]);
    expect((await deliveries('hist-list', '?status=success')).map((d) => d.id)).toEqual([ids[2], ids[0]]);
    expect(await deliveries('hist-list', '?status=pending')).toEqual([]);
    expect(ok(await list('hist-list', '?n=1'))).toMatchObject({ deliveries: [{ id: ids[2] }], n: 1 });
    for (const query of ['?n=0', '?n=101', '?n=two', '?status=failed']) {
      const res = await list('hist-list', query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect((await list('hist-list', '?n=0')).body).toBe('Invalid n: must be an integer from 1 to 100');
  });

  it('answers 404 for another wallet’s webhook, an unknown webhook or delivery, and a delivery of another webhook', async () => {
    await create('hist-own');
    await create('hist-other');
    await api.test('hist-own');
    const [delivery] = await deliveries('hist-own');
    const stranger = await get().createToken(10);
    await webhookApi(get(), stranger).create({ webhookId: 'hist-own', url: outbound.url(path) });
    const notFound = (res: { statusCode: number; body: string }) => ({ status: res.statusCode, body: res.body });

    expect(ok(await list('hist-own', '', stranger)).deliveries).toEqual([]);
    expect(notFound(await detail('hist-own', delivery?.id, stranger))).toEqual({
      status: 404,
      body: 'Delivery not found',
    });
    expect(notFound(await list('hist-nobody'))).toEqual({ status: 404, body: 'Webhook not found' });
    expect(notFound(await list('hist-nobody', '', stranger))).toEqual({ status: 404, body: 'Webhook not found' });
    expect(notFound(await detail('hist-nobody', delivery?.id))).toEqual({ status: 404, body: 'Webhook not found' });
    expect(notFound(await detail('hist-own', 'msg_unknown'))).toEqual({ status: 404, body: 'Delivery not found' });
    expect(notFound(await detail('hist-other', delivery?.id))).toEqual({ status: 404, body: 'Delivery not found' });
    const other = await get().createToken(10);
    expect(notFound(await list('hist-own', '', other))).toEqual({ status: 404, body: 'Webhook not found' });
    expect(notFound(await detail('hist-own', delivery?.id, other))).toEqual({ status: 404, body: 'Webhook not found' });
  });

  it('a webhook created again under a deleted one’s id starts its own history: the old deliveries are not listed, shown or redeliverable', async () => {
    await create('hist-again');
    await api.test('hist-again');
    const [old] = await deliveries('hist-again');
    expect((await api.remove('hist-again')).statusCode).toBe(200);
    clock.advance(1000);
    await create('hist-again', outbound.url(`${path}/new`));
    expect(await deliveries('hist-again')).toEqual([]);
    expect([(await detail('hist-again', old?.id)).statusCode, (await detail('hist-again', old?.id)).body]).toEqual([
      404,
      'Delivery not found',
    ]);
    const redelivered = await get().inject({
      method: 'POST',
      url: `/webhook/hist-again/deliveries/${old?.id}/redeliver`,
      headers: { 'x-token': token },
    });
    expect([redelivered.statusCode, redelivered.body, redelivered.headers['x-cost']]).toEqual([
      404,
      'Delivery not found',
      '1',
    ]);
    expect(outbound.requestsTo(`${path}/new`)).toHaveLength(0);
    await api.test('hist-again');
    expect((await deliveries('hist-again')).map((delivery) => delivery.trigger)).toEqual(['test']);
  });

  it('sweeps deliveries and attempts older than 7 days, keeping younger ones', async () => {
    await create('hist-sweep');
    await api.test('hist-sweep');
    clock.advance(DAY);
    await api.test('hist-sweep');
    const [young, old] = await deliveries('hist-sweep');
    const count = async (table: string, column: string, id: string) =>
      Number(
        (
          await get().deps.store.read.get<{ n: number | string }>(
            `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = $1`,
            [id],
          )
        )?.n,
      );

    clock.set(START + 7 * DAY - 1);
    await sweep(get().deps);
    expect(await count('deliveries', 'id', String(old?.id))).toBe(1);
    clock.set(START + 7 * DAY);
    await sweep(get().deps);
    expect(await count('deliveries', 'id', String(old?.id))).toBe(0);
    expect(await count('delivery_attempts', 'delivery_id', String(old?.id))).toBe(0);
    expect(await count('delivery_attempts', 'delivery_id', String(young?.id))).toBe(1);
    expect((await deliveries('hist-sweep')).map((d) => d.id)).toEqual([young?.id]);
  });
});
