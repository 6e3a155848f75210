import { beforeEach, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { ReceivedRequest } from '../../helpers/https-receiver.js';
import { DAY, MINUTE } from '../../../src/lib/time.js';
import { ok, received, storedRow, useReceiver, webhookApi } from './webhook-fixtures.js';
import { createMailbox, useMailHarness } from '../mail/mail-fixtures.js';
import type { WebhookApi } from './webhook-fixtures.js';

function signatureHeaders(request: ReceivedRequest, signature?: string): Record<string, string> {
  const pick = (name: string) => String(request.headers[name] ?? '');
  return {
    'webhook-id': pick('webhook-id'),
    'webhook-timestamp': pick('webhook-timestamp'),
    'webhook-signature': signature ?? pick('webhook-signature'),
  };
}

/** Whether the request verifies with the `standardwebhooks` library under `secret`. */
function verifies(secret: string, request: ReceivedRequest, signature?: string): boolean {
  try {
    new Webhook(secret).verify(request.text, signatureHeaders(request, signature));
    return true;
  } catch {
    return false;
  }
}

describeEachStore('signing-key rotation: deliveries carry the previous signature too for 24 hours', (kind) => {
  // The receivers' check of `webhook-timestamp` uses the real time: the test clock stays within minutes of it at
  // each delivery, and the rotation is placed in the past instead.
  const clock = new ManualClock(Date.now());
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { env, clock });
  let api: WebhookApi;
  let token: string;
  let url: string;
  /** When the webhook is rotated: 2 minutes less than 24 hours before now. */
  let rotatedAt: number;
  beforeEach(async () => {
    rotatedAt = Date.now() - DAY + 2 * MINUTE;
    clock.set(rotatedAt);
    token = await get().createToken(1000);
    api = webhookApi(get(), token);
    url = receiver().url('/signed', '127.0.0.1');
    receiver().respondWith({ status: 200, body: 'ok' });
  });

  const testDelivery = (webhookId: string) =>
    received(receiver(), async () => expect(ok(await api.test(webhookId)).success).toBe(true));

  it('verifies under both secrets until 24 h after the rotation, then under the new one only', async () => {
    const created = ok(await api.create({ webhookId: 'rot', url }));
    const rotated = ok(await api.patch('rot', { rotateSecret: true }));
    const [oldSecret, newSecret] = [String(created.signingSecret), String(rotated.signingSecret)];

    clock.set(Date.now()); // 23 h 58 min after the rotation
    const during = await testDelivery('rot');
    expect(verifies(newSecret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);
    // Two signatures, the new secret's first; each verifies under its own secret only.
    const [first, second, ...rest] = String(during.headers['webhook-signature']).split(' ');
    expect(rest).toStrictEqual([]);
    expect([verifies(newSecret, during, first), verifies(oldSecret, during, first)]).toStrictEqual([true, false]);
    expect([verifies(oldSecret, during, second), verifies(newSecret, during, second)]).toStrictEqual([true, false]);

    clock.set(rotatedAt + DAY); // 24 h after: within the receiver's 5-minute timestamp tolerance of the real time
    const after = await testDelivery('rot');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);
  });

  it('a webhook never rotated sends one signature', async () => {
    const created = ok(await api.create({ webhookId: 'plain', url }));
    clock.set(Date.now());
    const request = await testDelivery('plain');
    expect(String(request.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifies(String(created.signingSecret), request)).toBe(true);
  });

  it('changing other fields (PUT, PATCH) keeps the overlap; rotating again drops the oldest secret', async () => {
    const created = ok(await api.create({ webhookId: 'again', url }));
    const rotated = ok(await api.patch('again', { rotateSecret: true }));
    ok(await api.put('again', { url, headers: { 'X-Tag': 'v2' } }));
    ok(await api.patch('again', { format: 'slack' }));
    clock.set(Date.now());
    const kept = await testDelivery('again');
    expect([
      verifies(String(created.signingSecret), kept),
      verifies(String(rotated.signingSecret), kept),
    ]).toStrictEqual([true, true]);

    const third = ok(await api.patch('again', { rotateSecret: true }));
    const request = await testDelivery('again');
    expect(verifies(String(third.signingSecret), request)).toBe(true);
    expect(verifies(String(rotated.signingSecret), request)).toBe(true);
    expect(verifies(String(created.signingSecret), request)).toBe(false);
  });

  it('the previous secret is never shown: not by the rotation, a read, the list or a later change', async () => {
    const created = ok(await api.create({ webhookId: 'hidden', url }));
    const oldSecret = String(created.signingSecret);
    const answers = [
      await api.patch('hidden', { rotateSecret: true }),
      await api.get('hidden'),
      await api.list(),
      await api.patch('hidden', { url }),
      await api.put('hidden', { url }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(oldSecret);
      expect(res.body).not.toMatch(/previous/i);
    }
    // It is kept, for signing only.
    expect(await storedRow(get(), token, 'hidden', 'previous_signing_secret')).toStrictEqual({
      previous_signing_secret: oldSecret,
    });
  });
});

describeEachStore(
  'signing-key rotation: inbound mail delivered within the overlap verifies under both secrets',
  (kind) => {
    const clock = new ManualClock(Date.now());
    const secret = 'relay-secret-0123456789';
    const get = useMailHarness(kind, { env: { INBOUND_SECRET: secret }, app: { clock } });

    it('a relayed message after a rotation verifies under the old and the new secret, and a day later under the new one only', async () => {
      const h = get();
      const rotatedAt = Date.now() - DAY + 2 * MINUTE;
      clock.set(rotatedAt);
      const box = await createMailbox(h, {}, 1000, '/signed-mail');
      const oldSecret = String((await storedRow(h.t, box.token, box.webhookId, 'signing_secret'))?.signing_secret);
      const newSecret = String(
        ok(await webhookApi(h.t, box.token).patch(box.webhookId, { rotateSecret: true })).signingSecret,
      );
      const relay = async (messageId: string) => {
        const before = h.receiver.requests.length;
        const res = await h.t.inject({
          method: 'POST',
          url: `/inbound/raw?recipient=${encodeURIComponent(box.email)}`,
          headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': secret },
          payload: `From: a@sender.test\r\nSubject: signed\r\nMessage-ID: <${messageId}>\r\n\r\nHello.\r\n`,
        });
        expect(res.statusCode).toBe(202);
        const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
        await h.smtp.idle();
        return request as ReceivedRequest;
      };

      clock.set(Date.now());
      const during = await relay('overlap-1@sender.test');
      expect([verifies(newSecret, during), verifies(oldSecret, during)]).toStrictEqual([true, true]);
      clock.set(rotatedAt + DAY);
      const after = await relay('overlap-2@sender.test');
      expect([verifies(newSecret, after), verifies(oldSecret, after)]).toStrictEqual([true, false]);
    });
  },
);
