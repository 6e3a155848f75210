import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { startTestApp, balanceOf as walletBalance } from '../../helpers/app.js';
import type { TestApp, TestAppOptions } from '../../helpers/app.js';
import type { StoreKind } from '../../helpers/stores.js';
import type { HttpsReceiver, ReceivedRequest } from '../../helpers/https-receiver.js';
import { startSmtpListener } from '../../../src/features/mail/smtp-listener.js';
import type { SmtpListener, SmtpListenerOptions } from '../../../src/features/mail/smtp-listener.js';
import type { InboundOptions } from '../../../src/features/mail/inbound.service.js';
import { MAIL_DOMAIN, ok, useReceiver, webhookApi } from '../webhooks/webhook-fixtures.js';

export { MAIL_DOMAIN };

export interface MailHarness {
  readonly t: TestApp;
  readonly smtp: SmtpListener;
  readonly receiver: HttpsReceiver;
}

/**
 * A test app (its own scratch database), the SMTP listener on an ephemeral loopback port and a real
 * HTTPS receiver on 127.0.0.1 that webhooks deliver to. Started before the suite, closed after it.
 */
export function useMailHarness(
  kind: StoreKind,
  options: {
    env?: Record<string, string>;
    app?: Omit<TestAppOptions, 'env' | 'inbound'>;
    smtp?: Omit<SmtpListenerOptions, 'inbound'> & InboundOptions;
  } = {},
): () => MailHarness {
  const { env, receiver } = useReceiver();
  let harness: MailHarness | undefined;
  beforeAll(async () => {
    const { maxMessageBytes, recoveryIntervalMs = 0, ...listener } = options.smtp ?? {};
    // One inbound pipeline for the listener and the relay route, as the service has.
    const t = await startTestApp(kind, {
      ...options.app,
      env: { ...env, PUBLIC_URL: 'https://coinop.test', ...options.env },
      inbound: { maxMessageBytes, recoveryIntervalMs },
    });
    if (t.inbound === undefined) throw new Error('no inbound pipeline');
    const smtp = await startSmtpListener(t.deps, { port: 0, host: '127.0.0.1', ...listener, inbound: t.inbound });
    if (smtp === null) throw new Error('listener not started');
    harness = { t, smtp, receiver: receiver() };
  });
  afterAll(async () => {
    await harness?.smtp.close();
    await harness?.t.close();
  });
  return () => {
    if (harness === undefined) throw new Error('mail harness not started');
    return harness;
  };
}

export interface Mailbox {
  readonly token: string;
  readonly webhookId: string;
  /** `r_…@MAIL_DOMAIN` */
  readonly email: string;
}

let mailboxSeq = 0;

/** A wallet with `credits` and one mailbox webhook delivering to the receiver at `path`. */
export async function createMailbox(
  h: MailHarness,
  config: Record<string, unknown> = {},
  credits = 1000,
  path = '/inbound',
): Promise<Mailbox> {
  const token = await h.t.createToken(credits + 1); // +1: the create call itself
  const webhookId = `mail${++mailboxSeq}`;
  const created = ok(
    await webhookApi(h.t, token).create({ webhookId, url: h.receiver.url(path, '127.0.0.1'), ...config }),
  );
  return { token, webhookId, email: String(created.email) };
}

export function transport(port: number, options: Partial<SMTPTransport.Options> = {}) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    name: 'client.test',
    ...options,
  });
}

/** Sends one message with nodemailer over SMTP and returns what the server answered. */
export async function sendMail(h: MailHarness, message: SendMailOptions, options: Partial<SMTPTransport.Options> = {}) {
  const mailer = transport(h.smtp.port, options);
  try {
    return await mailer.sendMail({ from: 'Alice Sender <alice@sender.test>', ...message });
  } finally {
    mailer.close();
  }
}

/** Sends a message and returns the request the receiver got for it (and the parsed JSON). */
export async function deliveredMail(
  h: MailHarness,
  message: SendMailOptions,
): Promise<{ request: ReceivedRequest; body: Record<string, any> }> {
  const before = h.receiver.requests.length;
  const info = await sendMail(h, message);
  expect(info.response).toMatch(/^250 /);
  const all = await h.receiver.waitForRequests(before + 1);
  const request = all[before] as ReceivedRequest;
  await h.smtp.idle();
  return { request, body: JSON.parse(request.text) as Record<string, any> };
}

/** Balance of a token's wallet, straight from the store. */
export const balanceOf = (h: MailHarness, token: string): Promise<number | undefined> => walletBalance(h.t, token);

export async function outboxCount(h: MailHarness): Promise<number> {
  const row = await h.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM inbound_outbox');
  return Number(row?.n ?? 0);
}

/**
 * A hand-driven SMTP session over a plain socket, for what a library client will not do
 * (malformed input, no SIZE parameter, pipelined commands).
 */
export class RawSmtp {
  private buffer = '';
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(port: number): Promise<{ client: RawSmtp; greeting: string }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new RawSmtp(socket);
    return { client, greeting: await client.reply() };
  }

  /** The next complete reply (all lines of a multi-line one). */
  async reply(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = /^(?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n/.exec(this.buffer);
      if (match) {
        this.buffer = this.buffer.slice(match[0].length);
        return match[0].trimEnd();
      }
      if (this.socket.destroyed) throw new Error(`connection closed; pending: ${this.buffer}`);
      if (Date.now() > deadline) throw new Error(`no reply; pending: ${this.buffer}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** DATA, then the message (dot-stuffed here) and the final dot; returns the reply to the message. */
  async data(message: Buffer | string): Promise<string> {
    const started = await this.command('DATA');
    if (!started.startsWith('354')) return started;
    const text = (Buffer.isBuffer(message) ? message.toString('latin1') : message).replace(/\r?\n/g, '\r\n');
    const stuffed = text.replace(/(^|\r\n)\./g, '$1..');
    this.socket.write(Buffer.from(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1'));
    return this.reply(30_000);
  }

  /** One whole transaction on an open session. */
  async transaction(
    from: string,
    to: readonly string[],
    message: Buffer | string,
  ): Promise<{ rcpt: string[]; data: string }> {
    expect(await this.command(`MAIL FROM:<${from}>`)).toMatch(/^250/);
    const rcpt: string[] = [];
    for (const address of to) rcpt.push(await this.command(`RCPT TO:<${address}>`));
    const data = rcpt.some((reply) => reply.startsWith('250')) ? await this.data(message) : '';
    if (data === '') await this.command('RSET');
    return { rcpt, data };
  }

  /** Raw bytes, no reply awaited. */
  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Hangs up without QUIT. */
  destroy(): void {
    this.socket.destroy();
  }

  async close(): Promise<void> {
    if (!this.socket.destroyed) {
      this.socket.write('QUIT\r\n');
      await new Promise<void>((resolve) => {
        this.socket.once('close', () => resolve());
        setTimeout(() => {
          this.socket.destroy();
          resolve();
        }, 1000);
      });
    }
  }
}
