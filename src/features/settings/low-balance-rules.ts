/**
 * What a low-balance settings update must satisfy, worded as the service answers it: shared by the route (its schema
 * and save-time checks) and the console's form, which refuses in the page what would be refused (and charged).
 * Whether the webhook's host resolves to a public address is only the service's to judge (src/outbound).
 */
import { checkHeaders } from '../../delivery-core/delivery-headers.js';
import { validateFormatConfig } from '../../formats/format-config.js';
import { EMAIL_ADDRESS } from '../../lib/email-address.js';
import { OutboundError } from '../../outbound/errors.js';
import { CALLBACK_URL_LENGTH_RULE, MAX_CALLBACK_URL_LENGTH, parseTargetUrl } from '../../outbound/url-rules.js';

export const MAX_THRESHOLD = 1e12;
export const THRESHOLD_RULE = `must be an integer from 0 to ${MAX_THRESHOLD}`;
export const MAX_EMAIL_LENGTH = 254;
export const EMAIL_RULE = `must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters`;

/** The shared checks word their messages for a webhook's own fields (`Invalid url: …`): here they sit under low_balance_webhook. */
export const underLowBalanceWebhook = (message: string): string =>
  message.replace(/^Invalid /, 'Invalid low_balance_webhook.');

/** The fields of a low-balance webhook the rules read. */
export interface LowBalanceWebhookFields {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly format?: string;
  readonly template?: Record<string, unknown>;
  readonly options?: Readonly<Record<string, string>>;
}

export function thresholdProblem(threshold: number): string | null {
  return Number.isInteger(threshold) && threshold >= 0 && threshold <= MAX_THRESHOLD
    ? null
    : `Invalid low_balance_threshold: ${THRESHOLD_RULE}`;
}

export function emailProblem(email: string): string | null {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(email)
    ? null
    : `Invalid low_balance_email: ${EMAIL_RULE}`;
}

/** The URL's syntax and scheme (HTTPS, no credentials), as the outbound client's save-time check words them. */
export function webhookUrlProblem(url: string): string | null {
  if (url.length > MAX_CALLBACK_URL_LENGTH) return underLowBalanceWebhook(`Invalid url: ${CALLBACK_URL_LENGTH_RULE}`);
  try {
    parseTargetUrl(url, false);
    return null;
  } catch (error) {
    if (error instanceof OutboundError) return underLowBalanceWebhook(error.message);
    throw error;
  }
}

/** The webhook's headers, format, options and template, after its URL. */
export function webhookContentProblem(webhook: LowBalanceWebhookFields): string | null {
  const format = validateFormatConfig({ format: webhook.format, options: webhook.options, template: webhook.template });
  return (
    checkHeaders({ ...webhook.headers }, 'low_balance_webhook.headers') ??
    (format === null ? null : underLowBalanceWebhook(format))
  );
}
