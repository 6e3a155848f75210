import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, balanceOf as walletBalance } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTwoPostgresInstances } from '../../helpers/use-test-app.js';
import { DUPLICATE_WINDOW_MS } from '../../../src/features/mail/duplicate-mail.js';
import { sweep } from '../../../src/retention.js';
import { MAIL_DOMAIN, balanceOf, createMailbox, outboxCount, sendMail, useMailHarness } from './mail-fixtures.js';
import type { MailHarness, Mailbox } from './mail-fixtures.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';

const SECRET = 'relay-secret-0123456789';

/** One MIME message, byte for byte the same each time it is sent. */
function mime(messageId: string | null, subject = 'Sent twice'): string {
  return [
    'From: Alice Sender <alice@sender.test>',
    'To: someone@elsewhere.test',
    `Subject: ${subject}`,
    ...(messageId === null ? [] : [`Message-ID: <${messageId}>`]),
    'Content-Type: text/plain; charset=utf-8',
    '',
    'The same message again.',
    '',
  ].join('\r\n');
}

/** Sends `raw` as it is over SMTP (a real client, nodemailer) to `to`; the server's answer. */
async function smtpRaw(h: MailHarness, to: readonly string[], raw: string): Promise<string> {
  const info = await sendMail(h, { envelope: { from: 'alice@sender.test', to: [...to] }, raw });
  return info.response;
}

function relay(t: TestApp, recipient: string, raw: string) {
  return t.inject({
    method: 'POST',
    url: `/inbound/raw?recipient=${encodeURIComponent(recipient)}`,
    headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': SECRET },
    payload: raw,
  });
}

/** What the receiver got at `path` since the start, once every delivery under way has ended. */
async function deliveredTo(h: MailHarness, path: string): Promise<Array<Record<string, any>>> {
  await h.smtp.idle();
  return h.receiver.requests
    .filter((request) => request.path === path)
    .map((request) => JSON.parse(request.text) as Record<string, any>);
}

async function deliveryLogs(h: MailHarness, box: Mailbox): Promise<Array<Record<string, any>>> {
  await h.t.deps.ledger.flush();
  const res = await h.t.inject({
    method: 'GET',
    url: '/token/logs?n=10&type=webhook-delivery',
    headers: { 'x-token': box.token },
  });
  return (res.json() as { logs: Array<Record<string, any>> }).logs;
}

let paths = 0;
const newPath = () => `/dupes-${++paths}`;

describeEachStore(
  'inbound mail: a Message-ID a mailbox got within 24 h is accepted again, not delivered or charged again',
  (kind) => {
    const clock = new ManualClock(Date.now());
    const get = useMailHarness(kind, { env: { INBOUND_SECRET: SECRET }, app: { clock } });
    beforeEach(() => get().receiver.respondWith({ status: 200, body: 'ok' }));

    it('SMTP: the same MIME sent twice gets 250 both times, one delivery, one charge, one log entry', async () => {
      const h = get();
      const path = newPath();
      const box = await createMailbox(h, {}, 1000, path);
      const raw = mime('smtp-twice@sender.test');
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      await h.receiver.waitForRequests(1);
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      const bodies = await deliveredTo(h, path);
      expect(bodies.map((body) => body.externalMessageId)).toStrictEqual(['smtp-twice@sender.test']);
      expect(await balanceOf(h, box.token)).toBe(998);
      expect(await outboxCount(h)).toBe(0);
      expect((await deliveryLogs(h, box)).map((log) => [log.status_code, log.cost])).toStrictEqual([[200, 2]]);
    });

    it('relay: the same message posted twice is 202 both times with the same answer, one delivery, one charge', async () => {
      const h = get();
      const path = newPath();
      const box = await createMailbox(h, {}, 1000, path);
      const raw = mime('relay-twice@sender.test');
      const first = await relay(h.t, box.email, raw);
      const second = await relay(h.t, box.email, raw);
      expect([first.statusCode, second.statusCode]).toStrictEqual([202, 202]);
      expect(first.json()).toStrictEqual({ accepted: true, externalMessageId: 'relay-twice@sender.test' });
      expect(second.json()).toStrictEqual(first.json());
      expect(await deliveredTo(h, path)).toHaveLength(1);
      expect(await balanceOf(h, box.token)).toBe(998);
    });

    it('two copies arriving at once (SMTP and relay together) are delivered and charged once', async () => {
      const h = get();
      const path = newPath();
      const box = await createMailbox(h, {}, 1000, path);
      const raw = mime('at-once@sender.test');
      const [smtp, relayed, again] = await Promise.all([
        smtpRaw(h, [box.email], raw),
        relay(h.t, box.email, raw),
        relay(h.t, box.email, raw),
      ]);
      expect([smtp.slice(0, 4), relayed.statusCode, again.statusCode]).toStrictEqual(['250 ', 202, 202]);
      expect(await deliveredTo(h, path)).toHaveLength(1);
      expect(await balanceOf(h, box.token)).toBe(998);
    });

    it('two different mailboxes with the same Message-ID both get it; a repeat to one of them and a third reaches only the third', async () => {
      const h = get();
      const path = newPath();
      const [a, b, c] = [
        await createMailbox(h, {}, 1000, path),
        await createMailbox(h, {}, 1000, path),
        await createMailbox(h, {}, 1000, path),
      ];
      const raw = mime('shared-id@sender.test');
      expect(await smtpRaw(h, [a.email], raw)).toMatch(/^250 /);
      expect((await relay(h.t, b.email, raw)).statusCode).toBe(202);
      expect(await smtpRaw(h, [a.email, c.email], raw)).toMatch(/^250 /);
      const bodies = await deliveredTo(h, path);
      expect(bodies.map((body) => body.raw.envelope.to[0]).sort()).toStrictEqual([a.email, b.email, c.email].sort());
      expect([await balanceOf(h, a.token), await balanceOf(h, b.token), await balanceOf(h, c.token)]).toStrictEqual([
        998, 998, 998,
      ]);
    });

    it('a message without a Message-ID is never taken for a repeat', async () => {
      const h = get();
      const path = newPath();
      const box = await createMailbox(h, {}, 1000, path);
      const raw = mime(null);
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      expect((await relay(h.t, box.email, raw)).statusCode).toBe(202);
      const bodies = await deliveredTo(h, path);
      expect(bodies).toHaveLength(3);
      expect(new Set(bodies.map((body) => body.externalMessageId)).size).toBe(3);
      expect(await balanceOf(h, box.token)).toBe(994);
    });

    it('a repeat just under 24 h later is still one; from 24 h on it is delivered and charged again; the sweep then forgets it', async () => {
      const h = get();
      const path = newPath();
      const box = await createMailbox(h, {}, 1000, path);
      const raw = mime('next-day@sender.test');
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      await h.receiver.waitForRequests(1);
      clock.advance(DUPLICATE_WINDOW_MS - 1000);
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      expect(await deliveredTo(h, path)).toHaveLength(1);
      clock.advance(1000);
      expect(await smtpRaw(h, [box.email], raw)).toMatch(/^250 /);
      expect(await deliveredTo(h, path)).toHaveLength(2);
      expect(await balanceOf(h, box.token)).toBe(996);
      // The second delivery counts from its own time: a repeat now is one again.
      expect((await relay(h.t, box.email, raw)).statusCode).toBe(202);
      expect(await deliveredTo(h, path)).toHaveLength(2);

      const seen = async () =>
        Number((await h.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM inbound_seen_messages'))?.n);
      expect(await seen()).toBeGreaterThan(0);
      clock.advance(DUPLICATE_WINDOW_MS);
      await sweep(h.t.deps);
      expect(await seen()).toBe(0);
    });
  },
);

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'inbound mail: two instances on one PostgreSQL given the same message at once',
  () => {
    const outbound = useOutboundFixture();
    const instances = useTwoPostgresInstances({ env: { ...outbound.env, MAIL_DOMAIN, INBOUND_SECRET: SECRET } });
    let first: TestApp;
    let second: TestApp;
    beforeAll(() => ([first, second] = instances()));

    it('deliver and charge each message once, whichever instance wins', async () => {
      const token = await first.createToken(1001);
      const created = ok(await webhookApi(first, token).create({ url: outbound.url('/two-instances') }));
      const email = String(created.email);
      const MESSAGES = 20;
      for (let i = 0; i < MESSAGES; i++) {
        const raw = mime(`race-${i}@sender.test`, `Race ${i}`);
        const answers = await Promise.all([relay(first, email, raw), relay(second, email, raw)]);
        expect(answers.map((res) => res.statusCode)).toStrictEqual([202, 202]);
      }
      await Promise.all([first.inbound?.idle(), second.inbound?.idle()]);
      const subjects = outbound
        .requestsTo('/two-instances')
        .map((request) => (JSON.parse(request.text) as { subject: string }).subject);
      expect(subjects).toHaveLength(MESSAGES);
      expect(new Set(subjects).size).toBe(MESSAGES);
      expect(await walletBalance(first, token)).toBe(1000 - 2 * MESSAGES);
    });
  },
);
