/**
 * The rules the service applies to a webhook before saving it, run on the draft in the page with the same code: the
 * id rule (webhook-id.ts), the URL's syntax and scheme (url-rules.ts), headers (src/delivery-core/delivery-headers.ts), formats and
 * templates (src/formats), and the cron, time zone and 30-day windows (cron-rules.ts), in the order webhook-rules.ts
 * applies them. What would be refused (and charged) is refused here first. Only what needs the service's network or
 * settings (whether the URL's host resolves to a public address, whether this instance receives mail) is left to it.
 */
import { checkScheduleWindow, parseSchedule } from '../../../../src/lib/cron/cron-rules.js';
import { checkWebhookId, WEBHOOK_ID_PATTERN, WEBHOOK_ID_RULE } from '../../../../src/features/webhooks/webhook-id.js';
import { checkHeaders, repeatedHeaderProblem } from '../../../../src/delivery-core/delivery-headers.js';
import { validateFormatConfig } from '../../../../src/formats/index.js';
import {
  CALLBACK_URL_LENGTH_RULE,
  MAX_CALLBACK_URL_LENGTH,
  parseTargetUrl,
} from '../../../../src/outbound/url-rules.js';
import { headersOf, optionsOf, parseTemplate, type Draft } from './form-state.js';

const WEBHOOK_ID = new RegExp(WEBHOOK_ID_PATTERN);
/** The id input's own pattern attribute: the same rule, without the anchors HTML adds itself. */
export const WEBHOOK_ID_INPUT_PATTERN = WEBHOOK_ID_PATTERN.replace(/^\^|\$$/g, '').replace('_-', '_\\-');

/** The first rule the draft breaks, in the service's words; null when the service would take it. */
export function draftProblem(draft: Draft, editing: boolean, now = new Date()): string | null {
  const id = draft.webhookId.trim();
  if (!editing && id !== '') {
    if (!WEBHOOK_ID.test(id)) return `Invalid webhookId: ${WEBHOOK_ID_RULE}`;
    const reserved = checkWebhookId(id);
    if (reserved !== null) return reserved;
  }
  if (draft.url.trim() === '') return 'Give the callback URL (https://…).';
  if (draft.url.trim().length > MAX_CALLBACK_URL_LENGTH) return `Invalid url: ${CALLBACK_URL_LENGTH_RULE}`;
  try {
    parseTargetUrl(draft.url.trim(), false);
  } catch (error) {
    return error instanceof Error ? error.message : 'Invalid url';
  }
  const named = draft.headers.filter((row) => row.name.trim() !== '').map((row) => row.name);
  const headerProblem = repeatedHeaderProblem(named) ?? checkHeaders(headersOf(draft.headers));
  if (headerProblem !== null) return headerProblem;
  if (draft.mode === 'scheduled') {
    const parsed = parseSchedule(draft.cron.trim(), draft.timezone.trim());
    return parsed.ok ? checkScheduleWindow(parsed.schedule, now) : parsed.error;
  }
  let template: Record<string, unknown> | undefined;
  if (draft.format === 'custom') {
    const parsed = parseTemplate(draft.template);
    if (!parsed.ok) return parsed.error;
    template = parsed.value;
  }
  return validateFormatConfig({ format: draft.format, options: optionsOf(draft), template });
}
