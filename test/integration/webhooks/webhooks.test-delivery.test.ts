import { beforeEach, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { ReceivedRequest } from '../../helpers/https-receiver.js';
import { SERVICE_VERSION } from '../../../src/deps.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { expectError, ok, received, useReceiver, webhookApi } from './webhook-fixtures.js';
import type { WebhookApi } from './webhook-fixtures.js';

const TEXT = 'This is a test email sent by coinop to check your webhook.';
const HTML = `<p>${TEXT}</p>`;
const DELIVERED = { success: true, message: 'test webhook delivered' };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The signature headers of a received request, as standardwebhooks wants them. */
function signatureHeaders(request: ReceivedRequest): Record<string, string> {
  const pick = (name: string) => String(request.headers[name] ?? '');
  return {
    'webhook-id': pick('webhook-id'),
    'webhook-timestamp': pick('webhook-timestamp'),
    'webhook-signature': pick('webhook-signature'),
  };
}

const near = (iso: string) => Math.abs(Date.parse(iso) - Date.now()) < 60_000;

describeEachStore('POST /webhook/{webhookId}/test delivers through a real HTTPS receiver', (kind) => {
  // The real clock: receivers check the signature timestamp against their own.
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { env });
  let api: WebhookApi;
  let token: string;
  let url: string;
  beforeEach(async () => {
    token = await get().createToken(1000);
    api = webhookApi(get(), token);
    url = receiver().url('/hook?source=coinop', '127.0.0.1');
    receiver().respondWith({ status: 200, body: 'ok' });
  });

  /** Creates a webhook, runs its test, checks the 200 answer, and returns what the receiver got. */
  async function deliveredFor(config: Record<string, unknown>) {
    const created = ok(await api.create({ url, ...config }));
    let answer: Record<string, unknown> = {};
    const request = await received(receiver(), async () => {
      const res = await api.test(String(created.webhookId));
      expect(res.headers).toMatchObject({ 'x-cost': '1', 'x-balance': '998' });
      answer = ok(res);
    });
    expect(answer).toStrictEqual(DELIVERED);
    return { created, request, body: JSON.parse(request.text) as Record<string, any> };
  }

  it('mailbox without format: the raw test inbound-email payload addressed to the webhook’s mailbox', async () => {
    const { created, request, body } = await deliveredFor({});
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hook?source=coinop');
    expect(body).toStrictEqual({
      externalMessageId: expect.stringMatching(/^test-[a-z2-7]{16}$/),
      receivedAt: expect.stringMatching(ISO),
      from: { email: 'test@example.com', name: 'Test User' },
      to: [{ email: created.email }],
      cc: [],
      subject: 'Test webhook',
      text: TEXT,
      html: HTML,
      headers: {},
      attachments: [],
      provider: 'test',
    });
    expect(near(body.receivedAt)).toBe(true);
  });

  it('sends content-type application/json, the coinop user agent and the configured headers', async () => {
    const { request } = await deliveredFor({ headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k-1' } });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(`coinop-webhook/${SERVICE_VERSION}`);
    expect(request.headers.authorization).toBe('Bearer abc');
    expect(request.headers['x-api-key']).toBe('k-1');
  });

  it('format slack: {"text"} with bold subject, escaped sender line and body', async () => {
    const { body } = await deliveredFor({ format: 'slack' });
    expect(body).toStrictEqual({ text: `*Test webhook*\nFrom: Test User &lt;test@example.com&gt;\n${TEXT}` });
  });

  it('format discord: {"content"} with bold subject, sender line and body', async () => {
    const { body } = await deliveredFor({ format: 'discord' });
    expect(body).toStrictEqual({ content: `**Test webhook**\nFrom: Test User <test@example.com>\n${TEXT}` });
  });

  it('format teams: a message with text and an Adaptive Card', async () => {
    const { body } = await deliveredFor({ format: 'teams' });
    expect(body).toStrictEqual({
      type: 'message',
      text: `**Test webhook**\nFrom: Test User <test@example.com>\n${TEXT}`,
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Test webhook', wrap: true, weight: 'Bolder', size: 'Medium' },
              {
                type: 'TextBlock',
                text: 'From: Test User <test@example.com>',
                wrap: true,
                isSubtle: true,
                spacing: 'None',
              },
              { type: 'TextBlock', text: TEXT, wrap: true },
            ],
          },
        },
      ],
    });
  });

  it('format telegram: chat_id from the options, HTML text, parse_mode HTML', async () => {
    const { body } = await deliveredFor({ format: 'telegram', options: { chat_id: '-100123' } });
    expect(body).toStrictEqual({
      chat_id: '-100123',
      text: `<b>Test webhook</b>\nFrom: Test User &lt;test@example.com&gt;\n${TEXT}`,
      parse_mode: 'HTML',
    });
  });

  it('format pagerduty: a trigger event with the routing key', async () => {
    const { body } = await deliveredFor({ format: 'pagerduty', options: { routing_key: 'R0UT1NG' } });
    expect(body).toStrictEqual({
      routing_key: 'R0UT1NG',
      event_action: 'trigger',
      dedup_key: expect.stringMatching(/^test-[a-z2-7]{16}$/),
      payload: {
        summary: 'Test webhook',
        source: 'test@example.com',
        severity: 'info',
        timestamp: expect.stringMatching(ISO),
        custom_details: { text: TEXT, from_name: 'Test User' },
      },
    });
  });

  it('format custom: the template filled from the test payload', async () => {
    const template = {
      title: '{{subject}} from {{from.name}}',
      to: '{{to[0].email}}',
      cc: '{{cc[0].email|"nobody"}}',
      attachments: '{{attachments}}',
      nested: { body: '{{text|html}}', provider: '{{provider}}' },
      fixed: 42,
    };
    const { created, body } = await deliveredFor({ format: 'custom', template });
    expect(body).toStrictEqual({
      title: 'Test webhook from Test User',
      to: created.email,
      cc: 'nobody',
      attachments: [],
      nested: { body: TEXT, provider: 'test' },
      fixed: 42,
    });
  });

  it('scheduled mode: the scheduled-run payload with scheduledFor = executedAt = now and test true', async () => {
    const { body } = await deliveredFor({ webhookId: 'nightly', schedule: { cron: '0 3 * * *', timezone: 'UTC' } });
    expect(body).toStrictEqual({
      type: 'scheduled_webhook_run',
      webhookId: 'nightly',
      scheduledFor: expect.stringMatching(ISO),
      executedAt: body.scheduledFor,
      walletHash: sha256Hex(token),
      test: true,
    });
    expect(near(body.executedAt)).toBe(true);
  });

  it('signs every delivery with Standard Webhooks headers that verify with the signing secret', async () => {
    const { created, request } = await deliveredFor({ format: 'slack' });
    const headers = signatureHeaders(request);
    expect(headers['webhook-id']).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(new Webhook(created.signingSecret).verify(request.text, headers)).toStrictEqual(JSON.parse(request.text));
    expect(() => new Webhook(created.signingSecret).verify(request.text.replace('Test', 'Best'), headers)).toThrow();
    const other = ok(await api.create({ webhookId: 'other', url }));
    expect(() => new Webhook(other.signingSecret).verify(request.text, headers)).toThrow();
  });

  // From 24 h after the rotation, only the new secret verifies: webhooks.signing-overlap.test.ts.
  it('after rotateSecret, deliveries verify with the new secret and, for 24 hours, with the old one too', async () => {
    const created = ok(await api.create({ webhookId: 'rot', url }));
    const rotated = ok(await api.patch('rot', { rotateSecret: true }));
    const request = await received(receiver(), async () => expect(ok(await api.test('rot'))).toStrictEqual(DELIVERED));
    const headers = signatureHeaders(request);
    expect(new Webhook(rotated.signingSecret).verify(request.text, headers)).toStrictEqual(JSON.parse(request.text));
    expect(new Webhook(created.signingSecret).verify(request.text, headers)).toStrictEqual(JSON.parse(request.text));
    const other = ok(await api.create({ webhookId: 'rot-other', url }));
    expect(() => new Webhook(other.signingSecret).verify(request.text, headers)).toThrow();
  });

  it('reports a receiver answering 500 as success false, "webhook call failed: HTTP 500", still a 200 charged 1', async () => {
    ok(await api.create({ webhookId: 'broken', url }));
    receiver().enqueue({ status: 500, body: 'boom' });
    await received(receiver(), async () => {
      const res = await api.test('broken');
      expect(res.headers['x-cost']).toBe('1');
      expect(ok(res)).toStrictEqual({ success: false, message: 'webhook call failed: HTTP 500' });
    });
  });

  it('reports a 4xx answer and an unreachable receiver as failures with their cause', async () => {
    ok(await api.create({ webhookId: 'gone', url }));
    receiver().enqueue({ status: 404 });
    expect(ok(await api.test('gone'))).toStrictEqual({ success: false, message: 'webhook call failed: HTTP 404' });
    ok(await api.create({ webhookId: 'closed', url: 'https://127.0.0.1:1/hook' }));
    const res = ok(await api.test('closed'));
    expect(res.success).toBe(false);
    expect(res.message).toMatch(/^webhook call failed: \S/);
  });

  it('logs each test once, as webhook-delivery with the webhookId as path', async () => {
    ok(await api.create({ webhookId: 'logged', url }));
    ok(await api.test('logged'));
    receiver().enqueue({ status: 500 });
    ok(await api.test('logged'));
    const logs = ok(await api.logs('webhook-delivery')).logs as Array<Record<string, unknown>>;
    expect(logs).toHaveLength(2);
    for (const entry of logs)
      expect(entry).toMatchObject({ method: 'POST', path: 'logged', endpoint: 'webhook-delivery', cost: 1 });
    // Each row tells how its delivery went: the failed one with the receiver's status and the cause.
    expect(logs.map((entry) => [entry.status_code, entry.error])).toEqual([
      [500, 'webhook call failed: HTTP 500'],
      [200, undefined],
    ]);
    expect(logs.map((entry) => entry.balance)).toEqual([997, 998]);
    const managed = ok(await api.logs('webhook')).logs as Array<Record<string, unknown>>;
    expect(managed.map((entry) => entry.path)).toEqual(['/webhook']);
  });

  it('ignores a request body and answers 404 for an unknown webhook without calling out', async () => {
    ok(await api.create({ webhookId: 'body', url }));
    const request = await received(receiver(), async () => {
      const res = await get().inject({
        method: 'POST',
        url: '/webhook/body/test',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(ok(res)).toStrictEqual(DELIVERED);
    });
    expect(JSON.parse(request.text).subject).toBe('Test webhook');
    const before = receiver().requests.length;
    expectError(await api.test('missing'), 404, 'Webhook not found');
    expect(receiver().requests).toHaveLength(before);
  });
});
