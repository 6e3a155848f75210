/**
 * Save-time rules of webhook configurations (docs/contract.md#webhooks and #schedules). Pure: the caller passes `now`; the URL's network check and the
 * store are the service's business.
 */
// The modules themselves, not formats/index.js: the clients bundle these rules, without the payload renderers.
import { isWebhookFormat } from '../../formats/payloads.js';
import { validateFormatConfig } from '../../formats/format-config.js';
import { checkScheduleWindow, parseSchedule } from '../../lib/cron/cron-rules.js';
import { checkHeaders } from '../../delivery-core/delivery-headers.js';
export { checkWebhookId, RESERVED_WEBHOOK_IDS } from './webhook-id.js';
import type { MailboxMode, ScheduledMode, WebhookConfig } from './webhook-record.js';
import { MAILBOX_ONLY_FIELDS, scheduleConflict } from './webhook-record.js';
import type { WebhookInput, WebhookPatch } from './webhooks.schemas.js';

export const DEFAULT_WEBHOOK_ID = 'default';
/** A PUT whose body names another webhook than its path (the clients refuse it with these words before sending). */
export const RENAME_REFUSED = 'Invalid webhookId: must match the path (a webhook cannot be renamed)';
export const MAX_WEBHOOKS_PER_WALLET = 100;

export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

const DEFAULT_MAILBOX: MailboxMode = {
  kind: 'mailbox',
  format: null,
  template: null,
  options: {},
  includeAttachments: true,
};

interface MailboxFields {
  format?: string | null;
  template?: Record<string, unknown> | null;
  options?: Record<string, string> | null;
  includeAttachments?: boolean;
}

function mailboxMode(fields: MailboxFields): RuleResult<MailboxMode> {
  const problem = validateFormatConfig({ format: fields.format, options: fields.options, template: fields.template });
  if (problem !== null) return fail(problem);
  return {
    ok: true,
    value: {
      kind: 'mailbox',
      format: isWebhookFormat(fields.format) ? fields.format : null,
      template: fields.template ?? null,
      options: fields.options ?? {},
      includeAttachments: fields.includeAttachments ?? true,
    },
  };
}

/** Validates a schedule (syntax, zone, 30-day rules) and computes its next run from `now`. */
export function scheduledMode(
  schedule: { cron: string; timezone: string; active: boolean },
  now: Date,
): RuleResult<ScheduledMode> {
  const parsed = parseSchedule(schedule.cron, schedule.timezone);
  if (!parsed.ok) return parsed;
  const windowError = checkScheduleWindow(parsed.schedule, now);
  if (windowError !== null) return fail(windowError);
  const next = schedule.active ? parsed.schedule.nextAfter(now) : null;
  return {
    ok: true,
    value: {
      kind: 'scheduled',
      cron: schedule.cron.trim(),
      timezone: parsed.schedule.timezone,
      active: schedule.active,
      nextRunAt: next?.getTime() ?? null,
    },
  };
}

const mailboxFieldsIn = (body: object): string[] =>
  MAILBOX_ONLY_FIELDS.filter((field) => (body as Record<string, unknown>)[field] !== undefined);

interface CommonFields {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly retryAttempts: number | undefined;
}

function withCommon(common: CommonFields, mode: RuleResult<MailboxMode | ScheduledMode>): RuleResult<WebhookConfig> {
  if (!mode.ok) return mode;
  return { ok: true, value: configOf(common, mode.value) };
}

/** Retries are kept only when on: a webhook without them has no `retryAttempts` at all. */
function configOf({ url, headers, retryAttempts }: CommonFields, mode: MailboxMode | ScheduledMode): WebhookConfig {
  return retryAttempts === undefined || retryAttempts === 0
    ? { url, headers, mode }
    : { url, headers, mode, retryAttempts };
}

/** POST and PUT: the whole configuration; the mode is chosen by the presence of `schedule`. */
export function configFromInput(input: WebhookInput, now: Date): RuleResult<WebhookConfig> {
  const conflicting = input.schedule === undefined ? [] : mailboxFieldsIn(input);
  if (conflicting[0] !== undefined) return fail(scheduleConflict(conflicting[0]));
  const headers = input.headers ?? {};
  const headerError = checkHeaders(headers);
  if (headerError !== null) return fail(headerError);
  const mode =
    input.schedule === undefined
      ? mailboxMode(input)
      : scheduledMode(
          { cron: input.schedule.cron, timezone: input.schedule.timezone, active: input.schedule.active ?? true },
          now,
        );
  return withCommon({ url: input.url, headers, retryAttempts: input.retry?.attempts ?? 0 }, mode);
}

/**
 * PATCH (docs/contract.md#webhooks): only the given fields change. `schedule: null` returns a scheduled webhook to
 * mailbox mode; a partial schedule is merged into the current one and validated again as a whole.
 */
export function configFromPatch(current: WebhookConfig, patch: WebhookPatch, now: Date): RuleResult<WebhookConfig> {
  const mailboxFields = mailboxFieldsIn(patch);
  const headers = patch.headers === undefined ? current.headers : (patch.headers ?? {});
  const toMailbox = patch.schedule === null || (patch.schedule === undefined && current.mode.kind === 'mailbox');
  if (!toMailbox && mailboxFields[0] !== undefined) {
    return fail(
      patch.schedule === undefined
        ? `Invalid field combination: ${mailboxFields[0]} is for mailbox webhooks and this webhook is scheduled (send "schedule": null to switch)`
        : scheduleConflict(mailboxFields[0]),
    );
  }
  const headerError = patch.headers === undefined ? null : checkHeaders(headers);
  if (headerError !== null) return fail(headerError);
  const url = patch.url ?? current.url;
  // `retry: null` (or attempts 0) returns to the contract's single attempt.
  const common = {
    url,
    headers,
    retryAttempts: patch.retry === undefined ? current.retryAttempts : (patch.retry?.attempts ?? 0),
  };

  if (toMailbox) {
    const base = current.mode.kind === 'mailbox' ? current.mode : DEFAULT_MAILBOX;
    return withCommon(
      common,
      mailboxMode({
        format: patch.format !== undefined ? patch.format : base.format,
        template: patch.template !== undefined ? patch.template : base.template,
        options: patch.options !== undefined ? (patch.options ?? {}) : base.options,
        includeAttachments: patch.includeAttachments ?? base.includeAttachments,
      }),
    );
  }
  // Scheduled, and stays so or becomes so.
  const schedule = patch.schedule;
  if (schedule === undefined || schedule === null) return { ok: true, value: configOf(common, current.mode) };
  const base = current.mode.kind === 'scheduled' ? current.mode : undefined;
  const cron = schedule.cron ?? base?.cron;
  const timezone = schedule.timezone ?? base?.timezone;
  if (cron === undefined) return fail('Missing required field: schedule.cron');
  if (timezone === undefined) return fail('Missing required field: schedule.timezone');
  return withCommon(common, scheduledMode({ cron, timezone, active: schedule.active ?? base?.active ?? true }, now));
}
