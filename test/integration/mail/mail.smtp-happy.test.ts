import { beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import type { ReceivedRequest } from '../../helpers/https-receiver.js';
import { SERVICE_VERSION } from '../../../src/deps.js';
import { DOWNLOADS_PER_ATTACHMENT } from '../../../src/features/mail/mail.routes.js';
import {
  MAIL_DOMAIN,
  RawSmtp,
  balanceOf,
  createMailbox,
  deliveredMail,
  outboxCount,
  sendMail,
  useMailHarness,
} from './mail-fixtures.js';
import { ok, storedRow, webhookApi } from '../webhooks/webhook-fixtures.js';
import { startSmtpListener } from '../../../src/features/mail/smtp-listener.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function signatureHeaders(request: ReceivedRequest): Record<string, string> {
  const pick = (name: string) => String(request.headers[name] ?? '');
  return {
    'webhook-id': pick('webhook-id'),
    'webhook-timestamp': pick('webhook-timestamp'),
    'webhook-signature': pick('webhook-signature'),
  };
}

async function logsOf(h: ReturnType<ReturnType<typeof useMailHarness>>, token: string) {
  await h.t.deps.ledger.flush();
  const res = await h.t.inject({
    method: 'GET',
    url: '/token/logs?n=10&type=webhook-delivery',
    headers: { 'x-token': token },
  });
  return (res.json() as { logs: Array<Record<string, any>> }).logs;
}

describeEachStore('inbound mail over SMTP: messages reach the webhook', (kind) => {
  const get = useMailHarness(kind);
  beforeEach(() => get().receiver.respondWith({ status: 200, body: 'ok' }));

  it('delivers a plain-text message as the contract’s payload, signed, charged 2 credits, logged, not retained', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { request, body } = await deliveredMail(h, {
      to: `Hook <${box.email}>`,
      cc: 'Carol <carol@cc.test>, dave@cc.test',
      subject: 'Plain subject',
      text: 'Hello from a test.\n',
      messageId: '<plain-1@sender.test>',
    });
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/inbound');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(`coinop-webhook/${SERVICE_VERSION}`);
    expect(body).toStrictEqual({
      externalMessageId: 'plain-1@sender.test',
      receivedAt: expect.stringMatching(ISO),
      from: { email: 'alice@sender.test', name: 'Alice Sender' },
      to: [{ email: box.email, name: 'Hook' }],
      cc: [{ email: 'carol@cc.test', name: 'Carol' }, { email: 'dave@cc.test' }],
      subject: 'Plain subject',
      text: 'Hello from a test.\n',
      headers: expect.objectContaining({
        subject: 'Plain subject',
        'message-id': '<plain-1@sender.test>',
        from: 'Alice Sender <alice@sender.test>',
      }),
      attachments: [],
      provider: 'smtp',
      url: `https://coinop.test/mailbox/${box.email.split('@')[0]}`,
      raw: {
        envelope: { from: 'alice@sender.test', to: [box.email] },
        size: expect.any(Number),
        remoteAddress: '127.0.0.1',
        helo: 'client.test',
      },
    });
    expect(Math.abs(Date.parse(body.receivedAt) - Date.now())).toBeLessThan(60_000);

    const row = await storedRow(h.t, box.token, box.webhookId, 'signing_secret');
    expect(() =>
      new Webhook(String(row?.signing_secret)).verify(request.text, signatureHeaders(request)),
    ).not.toThrow();
    expect(await balanceOf(h, box.token)).toBe(998);
    expect(await outboxCount(h)).toBe(0);
    const [log] = await logsOf(h, box.token);
    expect(log).toMatchObject({
      path: box.webhookId,
      endpoint: 'webhook-delivery',
      status_code: 200,
      cost: 2,
      balance: 998,
    });
  });

  it('carries html and text of a multipart/alternative message', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { body } = await deliveredMail(h, {
      to: box.email,
      subject: 'Both',
      text: 'Plain part',
      html: '<p>Rich <b>part</b></p>',
    });
    expect(body.text).toBe('Plain part');
    expect(body.html.trimEnd()).toBe('<p>Rich <b>part</b></p>');
  });

  it('derives text from html when the message has no text part', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { body } = await deliveredMail(h, {
      to: box.email,
      subject: 'Html only',
      html: '<h1>Title</h1><p>Para &amp; more</p>',
    });
    expect(body.html.trimEnd()).toBe('<h1>Title</h1><p>Para &amp; more</p>');
    expect(body.text).toBe('Title\n\nPara & more');
  });

  it('decodes encoded-word headers and non-UTF-8 bodies', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    const before = h.receiver.requests.length;
    const message = [
      'From: =?ISO-8859-1?Q?Jos=E9_Mu=F1oz?= <jose@sender.test>',
      `To: ${box.email}`,
      'Subject: =?UTF-8?B?w4ltZXR0ZXVyIOKAkyDimJU=?=',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=windows-1252',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Caf=E9 =80 10',
    ].join('\r\n');
    const { data } = await client.transaction('jose@sender.test', [box.email], message);
    await client.close();
    expect(data).toMatch(/^250 /);
    const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
    const body = JSON.parse(String(request?.text)) as Record<string, any>;
    expect(body.from).toStrictEqual({ email: 'jose@sender.test', name: 'José Muñoz' });
    expect(body.subject).toBe('Émetteur – ☕');
    expect(body.text.trim()).toBe('Café € 10');
    expect(body.headers.subject).toBe('=?UTF-8?B?w4ltZXR0ZXVyIOKAkyDimJU=?=');
  });

  it('accepts the mailbox address whatever the case of its local part and domain', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { body } = await deliveredMail(h, { to: box.email.toUpperCase(), subject: 'Shouting', text: 'x' });
    expect(body.raw.envelope.to).toStrictEqual([box.email]);
  });

  it('delivers one message to each of several mailboxes, each charged and told only of itself', async () => {
    const h = get();
    const one = await createMailbox(h, {}, 100, '/one');
    const two = await createMailbox(h, {}, 100, '/two');
    const before = h.receiver.requests.length;
    const info = await sendMail(h, { to: [one.email, two.email], bcc: [], subject: 'Fan-out', text: 'both' });
    expect(info.accepted).toStrictEqual([one.email, two.email]);
    const requests = (await h.receiver.waitForRequests(before + 2)).slice(before);
    await h.smtp.idle();
    const byPath = Object.fromEntries(requests.map((r) => [r.path, JSON.parse(r.text) as Record<string, any>]));
    expect(byPath['/one']?.raw.envelope.to).toStrictEqual([one.email]);
    expect(byPath['/two']?.raw.envelope.to).toStrictEqual([two.email]);
    expect(byPath['/one']?.externalMessageId).toBe(byPath['/two']?.externalMessageId);
    expect([await balanceOf(h, one.token), await balanceOf(h, two.token)]).toStrictEqual([98, 98]);
  });

  it('puts the mailbox in `to` for a message that has no To header (Bcc)', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { body } = await deliveredMail(h, { bcc: box.email, subject: 'Blind', text: 'x' });
    expect(body.to).toStrictEqual([{ email: box.email }]);
  });

  it('answers 250 even when the receiver fails; the failure is logged and the message not retained', async () => {
    const h = get();
    const box = await createMailbox(h);
    h.receiver.respondWith({ status: 500, body: 'down' });
    const info = await sendMail(h, { to: box.email, subject: 'Into the void', text: 'x' });
    expect(info.response).toMatch(/^250 /);
    await h.smtp.idle();
    expect(await balanceOf(h, box.token)).toBe(998);
    expect(await outboxCount(h)).toBe(0);
    const [log] = await logsOf(h, box.token);
    expect(log).toMatchObject({
      path: box.webhookId,
      endpoint: 'webhook-delivery',
      status_code: 500,
      cost: 2,
      error: 'webhook call failed: HTTP 500',
    });
  });

  describe('attachments', () => {
    it('includeAttachments (default): metadata with a signed download URL, 5 credits, bytes downloadable', async () => {
      const h = get();
      const box = await createMailbox(h);
      const { body } = await deliveredMail(h, {
        to: box.email,
        subject: 'Files',
        text: 'see attached',
        attachments: [
          { filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' },
          { filename: 'naïve résumé.bin', content: Buffer.from([0, 1, 2, 255]) },
        ],
      });
      expect(body.attachments).toStrictEqual([
        {
          filename: 'report.csv',
          contentType: 'text/csv',
          size: 8,
          downloadUrl: expect.stringMatching(
            /^https:\/\/coinop\.test\/mail\/attachments\/[0-9A-Za-z]{20}\?expires=\d+&signature=[\w-]{43}$/,
          ),
          downloadUrlExpiresAt: expect.stringMatching(ISO),
        },
        {
          filename: 'naïve résumé.bin',
          contentType: 'application/octet-stream',
          size: 4,
          downloadUrl: expect.any(String),
          downloadUrlExpiresAt: expect.any(String),
        },
      ]);
      const expiresIn = Date.parse(body.attachments[0].downloadUrlExpiresAt) - Date.parse(body.receivedAt);
      expect(expiresIn).toBeGreaterThan(3_599_000);
      expect(expiresIn).toBeLessThanOrEqual(3_600_000);
      expect(await balanceOf(h, box.token)).toBe(995);

      const csv = await h.t.inject({
        method: 'GET',
        url: new URL(body.attachments[0].downloadUrl).pathname + new URL(body.attachments[0].downloadUrl).search,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe('a,b\n1,2\n');
      expect(csv.headers).toMatchObject({
        'content-type': 'text/csv',
        'content-disposition': 'attachment; filename="report.csv"; filename*=UTF-8\'\'report.csv',
        'x-content-type-options': 'nosniff',
      });
      const bin = await h.t.inject({
        method: 'GET',
        url: new URL(body.attachments[1].downloadUrl).pathname + new URL(body.attachments[1].downloadUrl).search,
      });
      expect(bin.rawPayload).toStrictEqual(Buffer.from([0, 1, 2, 255]));
      expect(bin.headers['content-disposition']).toBe(
        'attachment; filename="na_ve r_sum_.bin"; filename*=UTF-8\'\'na%C3%AFve%20r%C3%A9sum%C3%A9.bin',
      );

      // A link passed around is not a free pipe: one attachment is sent its burst of times, then 429.
      const link = new URL(body.attachments[0].downloadUrl);
      const again = () => h.t.inject({ method: 'GET', url: link.pathname + link.search });
      const statuses: number[] = [];
      for (let i = 1; i < DOWNLOADS_PER_ATTACHMENT.burst + 2; i++) statuses.push((await again()).statusCode);
      expect(statuses).toEqual([...Array<number>(DOWNLOADS_PER_ATTACHMENT.burst - 1).fill(200), 429, 429]);
      const refused = await again();
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toBe('Too Many Requests');
    });

    it('includeAttachments false: no metadata, nothing stored, 2 credits', async () => {
      const h = get();
      const box = await createMailbox(h, { includeAttachments: false });
      const stored = async () =>
        Number((await h.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail_attachments'))?.n);
      const before = await stored();
      const { body } = await deliveredMail(h, {
        to: box.email,
        subject: 'No files please',
        text: 'x',
        attachments: [{ filename: 'a.txt', content: 'secret' }],
      });
      expect(body.attachments).toStrictEqual([]);
      expect(await stored()).toBe(before);
      expect(await balanceOf(h, box.token)).toBe(998);
    });

    it('stores one copy of an attachment for all of a wallet’s mailboxes the message went to, one per wallet', async () => {
      const h = get();
      const box = await createMailbox(h);
      const api = webhookApi(h.t, box.token);
      const more = [];
      for (const webhookId of ['copy-a', 'copy-b'])
        more.push(String(ok(await api.create({ webhookId, url: h.receiver.url('/inbound', '127.0.0.1') })).email));
      const other = await createMailbox(h);
      const stored = async () =>
        Number((await h.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail_attachments'))?.n);
      const before = await stored();
      const requests = h.receiver.requests.length;
      const info = await sendMail(h, {
        to: [box.email, ...more, other.email],
        subject: 'Shared file',
        text: 'x',
        attachments: [{ filename: 'report.txt', content: 'the report' }],
      });
      expect(info.response).toMatch(/^250 /);
      const delivered = (await h.receiver.waitForRequests(requests + 4)).slice(requests);
      await h.smtp.idle();
      // Three mailboxes of one wallet and one of another: two stored copies, not four.
      expect((await stored()) - before).toBe(2);
      const links = delivered.map((request) => String(JSON.parse(request.text).attachments[0].downloadUrl));
      expect(new Set(links.map((link) => new URL(link).pathname)).size).toBe(2);
      for (const link of links) {
        const url = new URL(link);
        const download = await h.t.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        expect([download.statusCode, download.body]).toEqual([200, 'the report']);
      }
    });

    it('keeps cid: links of inline images, and names the image’s contentId', async () => {
      const h = get();
      const box = await createMailbox(h);
      const { body } = await deliveredMail(h, {
        to: box.email,
        subject: 'Inline',
        html: '<p>logo: <img src="cid:logo@test"></p>',
        attachments: [{ filename: 'logo.png', content: PNG, cid: 'logo@test', contentType: 'image/png' }],
      });
      expect(body.html.trimEnd()).toBe('<p>logo: <img src="cid:logo@test"></p>');
      expect(body.attachments).toStrictEqual([
        {
          filename: 'logo.png',
          contentType: 'image/png',
          size: PNG.length,
          contentId: 'logo@test',
          downloadUrl: expect.any(String),
          downloadUrlExpiresAt: expect.any(String),
        },
      ]);
    });
  });

  it('is not started when SMTP_PORT is 0 and no port is given', async () => {
    const { t } = get();
    expect(t.deps.config.smtpPort).toBe(0);
    if (t.inbound === undefined) throw new Error('no inbound pipeline');
    expect(await startSmtpListener(t.deps, { inbound: t.inbound })).toBeNull();
  });

  it('advertises SIZE and PIPELINING, no AUTH, and no STARTTLS without a certificate', async () => {
    const { client, greeting } = await RawSmtp.open(get().smtp.port);
    expect(greeting).toMatch(new RegExp(`^220 ${MAIL_DOMAIN.replace(/\./g, '\\.')} ESMTP`));
    const ehlo = await client.command('EHLO raw.test');
    await client.close();
    expect(ehlo).toMatch(/250[- ]SIZE 31457280/);
    expect(ehlo).toMatch(/PIPELINING/);
    expect(ehlo).not.toMatch(/AUTH|STARTTLS/);
  });
});
