import nodemailer from 'nodemailer';

/** Outbound e-mail (low-balance notifications): SMTP_URL through nodemailer, From NOTIFY_FROM. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  /** False when SMTP_URL is unset: nothing can be sent, callers log the mail as not sent. */
  readonly configured: boolean;
  /** Resolves once the SMTP server accepted the message; throws with the cause otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** SMTP_URL, e.g. smtp://user:pass@mail.example.com:587 or smtps://…; unset: not configured. */
  readonly smtpUrl?: string;
  /** NOTIFY_FROM. */
  readonly from: string;
}

/** A notification must not hold its lease for nodemailer's default of minutes when the relay hangs. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, from } = options;
  if (smtpUrl === undefined) {
    return {
      configured: false,
      send: () => Promise.reject(new Error('SMTP_URL is not set')),
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
