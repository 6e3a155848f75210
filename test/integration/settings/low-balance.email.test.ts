import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';
import pino from 'pino';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';

const PUBLIC_URL = 'https://coinop.example';

interface Received {
  readonly envelopeTo: string[];
  readonly mail: ParsedMail;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
async function startSmtpSink(): Promise<{ port: number; messages: Received[]; close(): Promise<void> }> {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachStore('low-balance e-mail', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  // The app reads SMTP_URL at start, so the port is fixed before the app starts: take one, then listen on it.
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00.000Z'));
  const outbound = useOutboundFixture();
  const env: Record<string, string> = { ...outbound.env, PUBLIC_URL, NOTIFY_FROM: 'Coinop <alerts@coinop.example>' };
  beforeAll(async () => {
    smtp = await startSmtpSink();
    env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
  });
  afterAll(async () => {
    await smtp.close();
  });
  const testApp = useTestApp(kind, { clock, env });
  const noSmtp = useTestApp(kind, { clock, env: { ...outbound.env, PUBLIC_URL } });

  let n = 0;
  beforeEach(() => {
    n += 1;
    smtp.messages.length = 0;
  });
  async function crossThreshold(app: ReturnType<typeof testApp>, settings: Record<string, unknown>): Promise<string> {
    const token = await app.createToken(100);
    await putSettings(app, token, { low_balance_threshold: 42, ...settings }); // 99 left
    await spendCredits(app, token, 99 - 42);
    return token;
  }

  it('e-mails the configured address once, from NOTIFY_FROM, with subject "Low balance: 42 credits left"', async () => {
    const token = await crossThreshold(testApp(), { low_balance_email: 'ops@example.com' });
    expect(await sendPendingLowBalance(testApp().deps)).toEqual({ handled: 1, webhooks: 0, emails: 1 });
    expect(await sendPendingLowBalance(testApp().deps)).toEqual({ handled: 0, webhooks: 0, emails: 0 });
    expect(smtp.messages).toHaveLength(1);
    const [{ envelopeTo, mail }] = smtp.messages as [Received];
    expect(envelopeTo).toEqual(['ops@example.com']);
    expect(mail.subject).toBe('Low balance: 42 credits left');
    expect(mail.from?.value).toEqual([{ address: 'alerts@coinop.example', name: 'Coinop' }]);
    expect(mail.text).toContain('Wallet balance 42 is at or below the threshold 42.');
    expect(mail.text).toContain(`${PUBLIC_URL}/recharge`);
    expect(mail.text).toContain(sha256Hex(token));
  });

  it('notifies both the webhook and the e-mail address of one incident', async () => {
    const path = `/mail-and-hook/${n}`;
    await crossThreshold(testApp(), {
      low_balance_email: 'both@example.com',
      low_balance_webhook: { url: outbound.url(path) },
    });
    expect(await sendPendingLowBalance(testApp().deps)).toEqual({ handled: 1, webhooks: 1, emails: 1 });
    expect(smtp.messages.map((m) => m.envelopeTo)).toEqual([['both@example.com']]);
    expect(outbound.requestsTo(path).map((r) => JSON.parse(r.text).wallet)).toEqual([42]);
  });

  it('logs the e-mail as not sent, at warn level, when SMTP_URL is unset, and clears the incident', async () => {
    const lines: Array<{ level: number; msg: string; to?: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const deps = { ...noSmtp().deps, logger: pino({ level: 'info' }, sink) };
    await crossThreshold(noSmtp(), { low_balance_email: 'nobody@example.com' });
    expect(deps.mailer.configured).toBe(false);
    expect(await sendPendingLowBalance(deps)).toEqual({ handled: 1, webhooks: 0, emails: 0 });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'low-balance e-mail not sent: SMTP_URL is not set',
        to: 'nobody@example.com',
      }),
    ]);
    expect(smtp.messages).toHaveLength(0);
    expect((await sendPendingLowBalance(deps)).handled).toBe(0);
  });
});
