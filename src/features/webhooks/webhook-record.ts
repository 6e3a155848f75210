import type { WebhookFormat } from '../../formats/index.js';

/**
 * A webhook as the service holds it. A webhook is in exactly one mode (docs/contract.md#webhooks):
 * mailbox (mail to its address is delivered) or scheduled (a cron fires it). Times are epoch ms.
 */
export interface MailboxMode {
  readonly kind: 'mailbox';
  readonly format: WebhookFormat | null;
  /** Kept whatever the format; shown and used only with format `custom`. */
  readonly template: Record<string, unknown> | null;
  readonly options: Readonly<Record<string, string>>;
  readonly includeAttachments: boolean;
}

export interface ScheduledMode {
  readonly kind: 'scheduled';
  readonly cron: string;
  /** Canonical IANA name. */
  readonly timezone: string;
  readonly active: boolean;
  /** Null while inactive: no run is due. */
  readonly nextRunAt: number | null;
}

/** What a create, replace or patch asks for, once validated. */
export interface WebhookConfig {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly mode: MailboxMode | ScheduledMode;
  /** Opt-in retries: attempts allowed after a delivery's first one fails; absent (never 0) is the contract's single attempt. */
  readonly retryAttempts?: number;
}

/** The outcome of the last scheduled run, written by the scheduler. */
export interface RunHistory {
  readonly lastRunAt: number | null;
  readonly lastStatus: string | null;
  readonly lastError: string | null;
}

/** The secret a rotation replaced, and when: deliveries carry its signature too for a while (src/delivery-core/signing.ts). Never shown. */
export interface PreviousSigningKey {
  readonly secret: string;
  readonly rotatedAt: number;
}

export interface WebhookRecord extends WebhookConfig {
  readonly webhookId: string;
  /** Mailbox mode: the local part of the address, `r_` + 16 base32 characters. Null when scheduled. */
  readonly mailbox: string | null;
  readonly signingSecret: string;
  readonly previousSigningKey?: PreviousSigningKey;
  /** Kept while the webhook stays scheduled; cleared when it returns to mailbox mode. */
  readonly history: RunHistory;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export const NO_HISTORY: RunHistory = Object.freeze({ lastRunAt: null, lastStatus: null, lastError: null });

export const MAILBOX_ONLY_FIELDS = ['format', 'template', 'options', 'includeAttachments'] as const;

/** The refusal of a mailbox field sent with a schedule (the service's, and the clients' before they send). */
export const scheduleConflict = (field: string): string =>
  `Invalid field combination: ${field} is for mailbox webhooks and cannot be sent with schedule`;
