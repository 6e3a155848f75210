import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { createTestCertificates } from '../../helpers/https-receiver.js';
import { TOO_MANY_UNPAID, UNPAID_MESSAGES } from '../../../src/features/mail/smtp-connection-limits.js';
import {
  MAIL_DOMAIN,
  RawSmtp,
  balanceOf,
  createMailbox,
  outboxCount,
  sendMail,
  useMailHarness,
} from './mail-fixtures.js';

const simple = (to: string, subject = 'Hi') =>
  `From: a@sender.test\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nbody\r\n`;

async function deliveryLogs(h: ReturnType<ReturnType<typeof useMailHarness>>, token: string) {
  await h.t.deps.ledger.flush();
  const res = await h.t.inject({
    method: 'GET',
    url: '/token/logs?n=10&type=webhook-delivery',
    headers: { 'x-token': token },
  });
  return (res.json() as { logs: Array<Record<string, any>> }).logs;
}

describeEachStore('inbound mail over SMTP: what is refused, and when', (kind) => {
  const get = useMailHarness(kind, { smtp: { maxMessageBytes: 64 * 1024, maxRecipients: 3 } });

  it('refuses unknown, malformed and foreign-domain recipients at RCPT with 550, accepting the others', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    const before = h.receiver.requests.length;
    const { rcpt, data } = await client.transaction(
      'a@sender.test',
      [
        `r_aaaaaaaaaaaaaaaa@${MAIL_DOMAIN}`,
        `someone@${MAIL_DOMAIN}`,
        `${box.email.split('@')[0]}@other.test`,
        box.email,
      ],
      simple(box.email),
    );
    await client.close();
    expect(rcpt.slice(0, 3)).toStrictEqual([
      '550 5.1.1 No such mailbox',
      '550 5.1.1 No such mailbox',
      '550 5.1.1 No such mailbox',
    ]);
    expect(rcpt[3]).toMatch(/^250 /);
    expect(data).toMatch(/^250 /);
    await h.receiver.waitForRequests(before + 1);
    await h.smtp.idle();
    expect(h.receiver.requests).toHaveLength(before + 1);
  });

  it('nodemailer sees every recipient rejected and sends nothing when none is a mailbox', async () => {
    const h = get();
    const before = h.receiver.requests.length;
    await expect(
      sendMail(h, { to: `r_bbbbbbbbbbbbbbbb@${MAIL_DOMAIN}`, subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({
      responseCode: 550,
      code: 'EENVELOPE',
    });
    expect(h.receiver.requests).toHaveLength(before);
  });

  it('refuses a mailbox whose wallet cannot pay even 2 credits at RCPT with 452 4.2.2, and logs why', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 1);
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    const { rcpt } = await client.transaction('a@sender.test', [box.email], simple(box.email));
    await client.close();
    expect(rcpt).toStrictEqual(['452 4.2.2 Insufficient credits']);
    expect(await balanceOf(h, box.token)).toBe(1);
    const [log] = await deliveryLogs(h, box.token);
    expect(log).toMatchObject({
      path: box.webhookId,
      endpoint: 'webhook-delivery',
      status_code: 402,
      cost: 0,
      balance: 1,
    });
  });

  it('answers DATA with 452 4.2.2 Insufficient credits when the message costs more than the wallet holds; nothing charged or sent', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 4); // enough for 2, not for 5 (an attachment)
    const before = h.receiver.requests.length;
    const error = await sendMail(h, {
      to: box.email,
      subject: 'x',
      text: 'x',
      attachments: [{ filename: 'a.txt', content: 'a' }],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ responseCode: 452, response: '452 4.2.2 Insufficient credits' });
    expect(await balanceOf(h, box.token)).toBe(4);
    expect(await outboxCount(h)).toBe(0);
    const stored = await h.t.deps.store.read.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM mail_attachments WHERE wallet_id = (SELECT wallet_id FROM webhooks WHERE webhook_id = $1)',
      [box.webhookId],
    );
    expect(Number(stored?.n)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.receiver.requests).toHaveLength(before);
    // The same message without the attachment costs 2 and goes through.
    expect((await sendMail(h, { to: box.email, subject: 'x', text: 'x' })).response).toMatch(/^250 /);
    await h.smtp.idle();
    expect(await balanceOf(h, box.token)).toBe(2);
  });

  it('refuses the whole message (452) when one of several recipients’ wallets cannot pay, charging none', async () => {
    const h = get();
    const rich = await createMailbox(h, {}, 100);
    const poor = await createMailbox(h, {}, 3);
    const error = await sendMail(h, {
      to: [rich.email, poor.email],
      subject: 'x',
      text: 'x',
      attachments: [{ filename: 'a.txt', content: 'a' }],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ responseCode: 452 });
    expect([await balanceOf(h, rich.token), await balanceOf(h, poor.token)]).toStrictEqual([100, 3]);
  });

  it('advertises its SIZE and refuses a larger message at DATA with 552, without charging', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { client } = await RawSmtp.open(h.smtp.port);
    expect(await client.command('EHLO raw.test')).toMatch(/250[- ]SIZE 65536/);
    const big = `${simple(box.email, 'big')}${'x'.repeat(76)}\r\n`.repeat(1000); // ~ 130 KB
    const { data } = await client.transaction('a@sender.test', [box.email], big);
    // The session goes on after the refusal.
    const next = await client.transaction('a@sender.test', [box.email], simple(box.email, 'small'));
    await client.close();
    expect(data).toMatch(/^552 5\.3\.4 /);
    expect(next.data).toMatch(/^250 /);
    await h.smtp.idle();
    expect(await balanceOf(h, box.token)).toBe(998);
  });

  it('forgets a message whose sender hangs up in the middle of DATA, and keeps serving', async () => {
    const h = get();
    const box = await createMailbox(h);
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    await client.command('MAIL FROM:<a@sender.test>');
    await client.command(`RCPT TO:<${box.email}>`);
    expect(await client.command('DATA')).toMatch(/^354/);
    client.write(`${simple(box.email)}${'y'.repeat(40_000)}`); // more than stays in memory, no final dot
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await balanceOf(h, box.token)).toBe(1000);
    const again = await sendMail(h, { to: box.email, subject: 'after', text: 'x' });
    expect(again.response).toMatch(/^250 /);
    await h.smtp.idle();
  });

  it('refuses a declared SIZE over the limit at MAIL FROM', async () => {
    const { client } = await RawSmtp.open(get().smtp.port);
    await client.command('EHLO raw.test');
    const reply = await client.command('MAIL FROM:<a@sender.test> SIZE=100000');
    await client.close();
    expect(reply).toMatch(/^552 /);
  });

  it('answers 452 to recipients beyond the per-message limit', async () => {
    const h = get();
    const boxes = await Promise.all([1, 2, 3, 4].map(() => createMailbox(h)));
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    const { rcpt } = await client.transaction(
      'a@sender.test',
      boxes.map((b) => b.email),
      simple('x@y.test'),
    );
    await client.close();
    expect(rcpt.slice(0, 3).every((reply) => reply.startsWith('250'))).toBe(true);
    expect(rcpt[3]).toMatch(/^452 /);
    await h.smtp.idle();
  });

  it('refuses at RCPT a mailbox whose webhook was deleted', async () => {
    const h = get();
    const box = await createMailbox(h);
    const res = await h.t.inject({
      method: 'DELETE',
      url: `/webhook/${box.webhookId}`,
      headers: { 'x-token': box.token },
    });
    expect(res.statusCode).toBe(200);
    await expect(sendMail(h, { to: box.email, subject: 'x', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
  });
});

describe('STARTTLS', () => {
  describeEachStore('inbound mail over SMTP with SMTP_TLS_CERT/KEY', (kind) => {
    // Certificates for 127.0.0.1 from the same helper as the HTTPS receiver.
    let caPem = '';
    const get = useMailHarness(kind, { env: tlsEnv((ca) => (caPem = ca)) });

    it('advertises STARTTLS and takes mail over TLS', async () => {
      const h = get();
      const box = await createMailbox(h);
      const before = h.receiver.requests.length;
      const info = await sendMail(
        h,
        { to: box.email, subject: 'secret', text: 'over tls' },
        { ignoreTLS: false, requireTLS: true, tls: { ca: caPem, servername: 'localhost' } },
      );
      expect(info.response).toMatch(/^250 /);
      const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
      expect(JSON.parse(String(request?.text)).subject).toBe('secret');
      await h.smtp.idle();
    });
  });
});

/** SMTP_TLS_CERT/KEY as PEM text (a path works too); the CA goes to the client. */
function tlsEnv(keepCa: (ca: string) => void): Record<string, string> {
  const certificates = createTestCertificates();
  keepCa(certificates.caPem);
  return { SMTP_TLS_CERT: certificates.certPem, SMTP_TLS_KEY: certificates.keyPem };
}

// Its own listener: the budget of unpaid messages is the listener's, per client, and this test spends it.
describeEachStore('inbound mail over SMTP: messages parsed and then not paid for', (kind) => {
  const get = useMailHarness(kind);

  it('refuses at MAIL FROM (450) a client whose messages were parsed and then not paid for, past a burst of them', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 4); // enough for 2, not for 5 (an attachment), known only once parsed
    const withAttachment = (n: number) =>
      `From: a@sender.test\r\nTo: ${box.email}\r\nSubject: ${n}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n` +
      `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=a.txt\r\n\r\na\r\n--b--\r\n`;
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO unpaid.test');
    const replies: string[] = [];
    for (let n = 0; n < UNPAID_MESSAGES.burst; n++) {
      const { data } = await client.transaction('a@sender.test', [box.email], withAttachment(n));
      replies.push(data);
    }
    expect(replies.every((reply) => reply === '452 4.2.2 Insufficient credits')).toBe(true);
    // Past the burst: refused before any DATA is sent, so before any parse.
    expect(await client.command('MAIL FROM:<a@sender.test>')).toBe(`450 4.2.1 ${TOO_MANY_UNPAID}`);
    await client.close();
    expect(await balanceOf(h, box.token)).toBe(4);
  });
});
