import { quotedName } from '../lib/cut-text.js';
import { WEBHOOK_FORMATS, isWebhookFormat } from './payloads.js';
import { validateTemplate } from './template-engine.js';

/** Save-time rules of `format`, `options` and `template` (docs/contract.md#webhooks). */

export const OPTIONS_MAX_KEYS = 10;
export const OPTION_VALUE_MAX_CHARS = 500;
/** Keys come back in full on every read of the webhook: bounded, as the formats' own (`chat_id`, `routing_key`) are short. */
export const OPTION_KEY_MAX_CHARS = 64;

/** Options a format cannot work without. */
export const REQUIRED_OPTION: Readonly<Partial<Record<string, string>>> = {
  pagerduty: 'routing_key',
  telegram: 'chat_id',
};

export interface FormatConfigInput {
  /** Absent, null or "" means no format (docs/contract.md#webhooks). */
  format?: string | null;
  options?: Record<string, unknown> | null;
  template?: unknown;
}

/** Short message for a 400 body, or null when the combination may be saved. */
export function validateFormatConfig(input: FormatConfigInput): string | null {
  const format = input.format ?? '';
  if (format !== '' && !isWebhookFormat(format)) return `Invalid format: must be one of ${WEBHOOK_FORMATS.join(', ')}`;
  const optionsError = validateOptions(input.options);
  if (optionsError !== null) return optionsError;
  const required = REQUIRED_OPTION[format];
  if (required !== undefined && !nonEmpty(input.options?.[required]))
    return `Invalid format: ${format} requires options.${required}`;
  const hasTemplate = input.template !== undefined && input.template !== null;
  if (format === 'custom' && !hasTemplate) return 'Invalid format: custom requires a template';
  // Checked whatever the format, so a template stored for later is never one that cannot render.
  return hasTemplate ? validateTemplate(input.template) : null;
}

function validateOptions(options: unknown): string | null {
  if (options === undefined || options === null) return null;
  if (typeof options !== 'object' || Array.isArray(options)) return 'Invalid options: must be an object';
  const entries = Object.entries(options);
  if (entries.length > OPTIONS_MAX_KEYS) return `Invalid options: at most ${OPTIONS_MAX_KEYS} keys`;
  for (const [key, value] of entries) {
    if (Array.from(key).length > OPTION_KEY_MAX_CHARS)
      return `Invalid options: key ${quotedName(key)} is longer than ${OPTION_KEY_MAX_CHARS} characters`;
    if (typeof value !== 'string') return `Invalid options: ${quotedName(key)} must be a string`;
    // Code points, as for KV values: an emoji is one character to the user.
    if (Array.from(value).length > OPTION_VALUE_MAX_CHARS) {
      return `Invalid options: ${quotedName(key)} must be at most ${OPTION_VALUE_MAX_CHARS} characters`;
    }
  }
  return null;
}

const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/** Read-back form: sensitive values masked (docs/contract.md#webhooks); `routing_key` already contains `key`. */
const SENSITIVE = /token|secret|password|key/i;

export function redactOptions(options: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  // fromEntries defines properties, so a `__proto__` key stays a plain key.
  return Object.fromEntries(
    Object.entries(options ?? {}).map(([key, value]) => [key, SENSITIVE.test(key) ? '***' : value]),
  );
}
