import { isoTime } from '../../lib/time.js';
import { redactOptions } from '../../formats/index.js';
import { redactHeaders } from '../../delivery-core/delivery-headers.js';
import type { ScheduledMode, RunHistory, WebhookRecord } from './webhook-record.js';

/** What a view needs besides the record: where mail arrives and whose webhook it is. */
export interface ViewContext {
  readonly mailDomain: string;
  readonly walletHash: string;
}

/** The full mailbox address of a mailbox-mode webhook. */
export const mailboxAddress = (mailbox: string, mailDomain: string): string => `${mailbox}@${mailDomain}`;

function scheduleView(mode: ScheduledMode, history: RunHistory) {
  return {
    cron: mode.cron,
    timezone: mode.timezone,
    active: mode.active,
    ...(mode.nextRunAt === null ? {} : { nextRunAt: isoTime(mode.nextRunAt) }),
    ...(history.lastRunAt === null ? {} : { lastRunAt: isoTime(history.lastRunAt) }),
    ...(history.lastStatus === null ? {} : { lastStatus: history.lastStatus }),
    ...(history.lastError === null ? {} : { lastError: history.lastError }),
  };
}

/**
 * A webhook as answered (docs/contract.md#webhooks): header values and sensitive options redacted,
 * mailbox fields or `schedule` by mode, then `hash`. The signing secret only when just issued.
 */
export function webhookView(record: WebhookRecord, context: ViewContext, signingSecret?: string) {
  const { mode } = record;
  const modeFields =
    mode.kind === 'mailbox'
      ? {
          ...(mode.format === null ? {} : { format: mode.format }),
          ...(mode.format === 'custom' && mode.template !== null ? { template: mode.template } : {}),
          options: redactOptions(mode.options),
          includeAttachments: mode.includeAttachments,
          ...(record.mailbox === null ? {} : { email: mailboxAddress(record.mailbox, context.mailDomain) }),
        }
      : { schedule: scheduleView(mode, record.history) };
  return {
    webhookId: record.webhookId,
    webhook: record.url,
    headers: redactHeaders(record.headers),
    ...modeFields,
    // Shown only when opted in: without it the answer is the contract's, field for field.
    ...(record.retryAttempts !== undefined && record.retryAttempts > 0
      ? { retry: { attempts: record.retryAttempts, backoff: 'exponential' as const } }
      : {}),
    hash: context.walletHash,
    ...(signingSecret === undefined ? {} : { signingSecret }),
  };
}
