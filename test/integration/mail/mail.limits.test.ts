import { expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import { sweep } from '../../../src/retention.js';
import { HOUR } from '../../../src/lib/time.js';
import { RawSmtp, balanceOf, createMailbox, deliveredMail, outboxCount, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';
import { storedRow } from '../webhooks/webhook-fixtures.js';

const MiB = 1024 * 1024;

const attachmentCount = async (h: MailHarness) =>
  Number((await h.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail_attachments'))?.n);

/** Path and query of an absolute download URL, for inject(). */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describeEachStore('inbound mail: the 1 MiB payload rule', (kind) => {
  const get = useMailHarness(kind);

  it('leaves a payload under 1 MiB whole, with no truncated flag', async () => {
    const h = get();
    const box = await createMailbox(h);
    const text = 'a'.repeat(900 * 1024);
    const { request, body } = await deliveredMail(h, { to: box.email, subject: 'big but fine', text });
    expect(body.text.trimEnd()).toBe(text); // mailparser ends a text part with a newline
    expect(body).not.toHaveProperty('truncated');
    expect(request.body.length).toBeLessThanOrEqual(MiB);
  });

  it('drops attachment metadata, then cuts html, then text, and marks the payload truncated', async () => {
    const h = get();
    const box = await createMailbox(h);
    const storedBefore = await attachmentCount(h);
    const text = 'é'.repeat(700 * 1024); // 1.4 MB of UTF-8
    const html = `<p>${'h'.repeat(800 * 1024)}</p>`;
    const { request, body } = await deliveredMail(h, {
      to: box.email,
      subject: 'too big',
      text,
      html,
      attachments: [
        { filename: 'a.txt', content: 'first' },
        { filename: 'b.txt', content: 'second' },
      ],
    });
    expect(request.body.length).toBeLessThanOrEqual(MiB);
    expect(request.body.length).toBeGreaterThan(MiB - 16);
    expect(body.truncated).toBe(true);
    expect(body.attachments).toStrictEqual([]);
    expect(body.html).toBe('');
    expect(text.startsWith(body.text)).toBe(true);
    expect(body.text.length).toBeGreaterThan(400 * 1024);
    // Attachments whose metadata was dropped are not stored; the message still had attachments: 5 credits.
    expect(await attachmentCount(h)).toBe(storedBefore);
    expect(await balanceOf(h, box.token)).toBe(995);
  });

  it('keeps the attachments that fit when only a little has to go, cutting nothing else', async () => {
    const h = get();
    const box = await createMailbox(h);
    const attachments = Array.from({ length: 40 }, (_, i) => ({
      filename: `${'n'.repeat(200)}-${i}.txt`,
      content: `file ${i}`,
    }));
    // Sized so the text alone fits and about half of the attachment metadata does not.
    const text = 'z'.repeat(MiB - 12 * 1024);
    const { request, body } = await deliveredMail(h, { to: box.email, subject: 'many files', text, attachments });
    expect(request.body.length).toBeLessThanOrEqual(MiB);
    expect(body.truncated).toBe(true);
    expect(body.text.trimEnd()).toBe(text);
    expect(body.attachments.length).toBeGreaterThan(0);
    expect(body.attachments.length).toBeLessThan(40);
    expect(body.attachments.map((a: { filename: string }) => a.filename)).toStrictEqual(
      attachments.slice(0, body.attachments.length).map((a) => a.filename),
    );
  });
});

describeEachStore('inbound mail: signed attachment URLs expire after an hour', (kind) => {
  const clock = new ManualClock(Date.now());
  const get = useMailHarness(kind, { app: { clock } });

  it('downloads until expiry, then 404; forged or altered links 404; the sweeper deletes the bytes', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { body } = await deliveredMail(h, {
      to: box.email,
      subject: 'f',
      text: 'x',
      attachments: [{ filename: 'f.txt', content: 'payload bytes' }],
    });
    const [attachment] = body.attachments as Array<{ downloadUrl: string; downloadUrlExpiresAt: string }>;
    const url = local(String(attachment?.downloadUrl));
    const expiresAt = Date.parse(String(attachment?.downloadUrlExpiresAt));
    const download = () => h.t.inject({ method: 'GET', url });

    expect((await download()).body).toBe('payload bytes');
    clock.set(expiresAt - 1000);
    expect((await download()).statusCode).toBe(200);

    const notFound = async (path: string) => {
      const res = await h.t.inject({ method: 'GET', url: path });
      expect({ status: res.statusCode, body: res.body, type: res.headers['content-type'] }).toStrictEqual({
        status: 404,
        body: 'Not Found',
        type: 'text/plain; charset=utf-8',
      });
    };
    await notFound(url.replace(/signature=./, (m) => `signature=${m.endsWith('A') ? 'B' : 'A'}`));
    await notFound(url.replace(/expires=(\d+)/, (_m, s: string) => `expires=${Number(s) + 3600}`));
    await notFound(url.replace(/attachments\/[^?]+/, 'attachments/AAAAAAAAAAAAAAAAAAAA'));
    await notFound(url.split('?')[0] as string);

    clock.set(expiresAt);
    await notFound(url);
    expect(await attachmentCount(h)).toBeGreaterThan(0);
    await sweep(h.t.deps);
    expect(await attachmentCount(h)).toBe(0);
    clock.set(expiresAt - 1000);
    await notFound(url); // the bytes are gone, whatever the clock says
    clock.advance(2 * HOUR);
  });
});

describeEachStore('inbound mail: the outbox survives a crash between 250 and delivery', (kind) => {
  const get = useMailHarness(kind);

  it('delivers entries left behind by a stopped instance once their claim ran out, then deletes them', async () => {
    const h = get();
    const box = await createMailbox(h);
    const walletId = Number(
      (
        await h.t.deps.store.read.get<{ wallet_id: number }>('SELECT wallet_id FROM webhooks WHERE webhook_id = $1', [
          box.webhookId,
        ])
      )?.wallet_id,
    );
    const now = h.t.deps.clock.now();
    const insert = (id: string, webhookId: string, claimUntil: number) =>
      h.t.deps.store.writeOne(
        'INSERT INTO inbound_outbox (id, wallet_id, webhook_id, body, cost, balance, created_at, claim_until) VALUES ($1, $2, $3, $4, 2, 50, $5, $6)',
        [id, walletId, webhookId, JSON.stringify({ subject: id }), now - 60_000, claimUntil],
      );
    await insert('orphan-1', box.webhookId, now - 1);
    await insert('still-claimed', box.webhookId, now + 60_000);
    await insert('webhook-gone', 'no-such-webhook', now - 1);
    const before = h.receiver.requests.length;

    expect(await h.smtp.recover()).toBe(2);
    await h.smtp.idle();
    const received = h.receiver.requests.slice(before).map((r) => JSON.parse(r.text) as { subject: string });
    expect(received).toStrictEqual([{ subject: 'orphan-1' }]);
    const left = await h.t.deps.store.read.all<{ id: string }>('SELECT id FROM inbound_outbox ORDER BY id');
    expect(left.map((row) => row.id)).toStrictEqual(['still-claimed']);
    // A second look finds nothing more to take.
    expect(await h.smtp.recover()).toBe(0);
    await h.t.deps.store.writeOne('DELETE FROM inbound_outbox');
    expect(await outboxCount(h)).toBe(0);
  });

  it('sends the stored JSON byte for byte, and signs exactly those bytes', async () => {
    const h = get();
    const box = await createMailbox(h);
    const walletId = Number((await storedRow(h.t, box.token, box.webhookId, 'wallet_id'))?.wallet_id);
    // Spacing, a number and an escape as JSON.stringify would not write them: a re-serialised body differs.
    const stored = '{ "subject":"bytes",  "n": 1.50, "a": "\\u00e9" }';
    await h.t.deps.store.writeOne(
      'INSERT INTO inbound_outbox (id, wallet_id, webhook_id, body, cost, balance, created_at, claim_until) VALUES ($1, $2, $3, $4, 2, 50, $5, $5)',
      ['verbatim', walletId, box.webhookId, stored, h.t.deps.clock.now() - 1],
    );
    const before = h.receiver.requests.length;
    expect(await h.smtp.recover()).toBe(1);
    await h.smtp.idle();
    const [request] = h.receiver.requests.slice(before);
    expect(request?.text).toBe(stored);
    const secret = String((await storedRow(h.t, box.token, box.webhookId, 'signing_secret'))?.signing_secret);
    const header = (name: string) => String(request?.headers[name]);
    const signature = {
      'webhook-id': header('webhook-id'),
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    };
    expect(() => new Webhook(secret).verify(stored, signature)).not.toThrow();
  });

  it('records the outbox entry before answering 250 and deletes it after the attempt', async () => {
    const h = get();
    const box = await createMailbox(h);
    // The receiver holds its answer: while it waits, the entry is in the store.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.receiver.enqueue(async () => {
      await held;
      return { status: 204 };
    });
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    const { data } = await client.transaction(
      'a@sender.test',
      [box.email],
      `To: ${box.email}\r\nSubject: held\r\n\r\nx\r\n`,
    );
    await client.close();
    expect(data).toMatch(/^250 /);
    expect(await outboxCount(h)).toBe(1);
    release();
    await h.smtp.idle();
    expect(await outboxCount(h)).toBe(0);
  });
});
