/**
 * Shapes of the JSON bodies the service sends out (docs/contract.md#deliveries, #inbound-e-mail, #schedules).
 * The mail, webhooks, scheduler and settings features build these; the
 * format adapters reshape them for chat and incident platforms.
 */

export const WEBHOOK_FORMATS = ['slack', 'discord', 'teams', 'telegram', 'pagerduty', 'custom'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const isWebhookFormat = (value: unknown): value is WebhookFormat =>
  typeof value === 'string' && (WEBHOOK_FORMATS as readonly string[]).includes(value);

export interface EmailAddress {
  email: string;
  name?: string;
}

/** Attachment metadata; every field is optional because relays report different subsets. */
export interface AttachmentMeta {
  filename?: string;
  contentType?: string;
  /** Bytes. Kept even when the attachment was dropped for size (docs/contract.md#inbound-e-mail). */
  size?: number;
  downloadUrl?: string;
  downloadUrlExpiresAt?: string;
}

/** Body of an inbound-email delivery when the webhook has no `format`. */
export interface InboundEmailPayload {
  externalMessageId: string;
  /** ISO 8601. */
  receivedAt: string;
  from: EmailAddress;
  to: EmailAddress[];
  cc: EmailAddress[];
  subject: string;
  text: string;
  html?: string;
  /** Raw headers; a header that occurs several times keeps every value. */
  headers: Record<string, string | string[]>;
  attachments: AttachmentMeta[];
  provider?: string;
  url?: string;
  raw?: Record<string, unknown>;
  /** Set when the 1 MiB rule dropped or cut content (docs/contract.md#inbound-e-mail). */
  truncated?: boolean;
}

/** Body of a scheduled-run delivery; never reshaped by a format. */
export interface ScheduledRunPayload {
  type: 'scheduled_webhook_run';
  webhookId: string;
  /** ISO 8601. */
  scheduledFor: string;
  /** ISO 8601. */
  executedAt: string;
  walletHash: string;
  /** Only on test deliveries (docs/contract.md#deliveries). */
  test?: boolean;
}

/** Data of a low-balance notification; also the placeholder source of custom templates. */
export interface LowBalanceEvent {
  wallet: number;
  threshold: number;
  token_hash: string;
  /** ISO 8601. */
  timestamp: string;
}

/** Body of a low-balance webhook without `format`. */
export interface LowBalancePayload extends LowBalanceEvent {
  type: 'low_balance';
}
