/**
 * The low-balance settings form's state, and the translation between it and the API's shapes
 * (docs/contract.md#low-balance: PUT merges, omitted fields keep their values, null clears).
 */
import { validateFormatConfig } from '../../../src/formats/index.js';
import {
  emailProblem,
  thresholdProblem,
  webhookContentProblem,
  webhookUrlProblem,
} from '../../../src/features/settings/low-balance-rules.js';
import { repeatedHeaderProblem } from '../../../src/delivery-core/delivery-headers.js';
import type { OkBody } from '../api-types.js';

export type SettingsView = OkBody<'settingsGet'>;
/** The webhook as read back; in an update (SettingsUpdate) its headers may be left out. */
export interface LowBalanceWebhookView extends Omit<NonNullable<SettingsView['low_balance_webhook']>, 'headers'> {
  readonly headers?: Record<string, string>;
}

export interface Draft {
  readonly threshold: string;
  readonly email: string;
  readonly url: string;
  /** '' for none. */
  readonly format: string;
  /** The custom template as typed (JSON text). */
  readonly template: string;
  readonly chatId: string;
  readonly routingKey: string;
  /** One `Name: value` per line. */
  readonly headers: string;
}

/** The service reads secrets back as this; sending it would store it. */
export const REDACTED = '***';

export const DEFAULT_TEMPLATE =
  '{\n  "text": "Balance {{wallet}} is at or below {{threshold}} (wallet {{token_hash}})"\n}';

export function draftOf(settings: SettingsView): Draft {
  const webhook = settings.low_balance_webhook;
  return {
    threshold: String(settings.low_balance_threshold),
    email: settings.low_balance_email ?? '',
    url: webhook?.url ?? '',
    format: webhook?.format ?? '',
    template: webhook?.template === undefined ? '' : JSON.stringify(webhook.template, null, 2),
    chatId: webhook?.options?.chat_id ?? '',
    routingKey: webhook?.options?.routing_key ?? '',
    headers: Object.entries(webhook?.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  };
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function parseTemplate(text: string): Parsed<Record<string, unknown> | undefined> {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, error: 'Invalid template: must be a JSON object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return {
      ok: false,
      error: `Invalid template: not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

export function parseHeaders(text: string): Parsed<Record<string, string>> {
  const headers: Record<string, string> = {};
  const names: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, error: `Invalid header line "${line.trim()}": write Name: value` };
    names.push(line.slice(0, colon));
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const repeated = repeatedHeaderProblem(names);
  return repeated === null ? { ok: true, value: headers } : { ok: false, error: repeated };
}

/** The webhook object the draft describes (before any check), or undefined when no URL is given. */
export function webhookOf(
  draft: Draft,
  saved: LowBalanceWebhookView | undefined,
): Parsed<LowBalanceWebhookView | undefined> {
  if (draft.url.trim() === '') return { ok: true, value: undefined };
  const headers = parseHeaders(draft.headers);
  if (!headers.ok) return headers;
  const template = draft.format === 'custom' ? parseTemplate(draft.template) : { ok: true as const, value: undefined };
  if (!template.ok) return template;
  // Options the form has no field for are kept as saved; chat_id and routing_key are what the formats need.
  const options: Record<string, string> = { ...saved?.options };
  delete options.chat_id;
  delete options.routing_key;
  if (draft.format === 'telegram' && draft.chatId.trim() !== '') options.chat_id = draft.chatId.trim();
  if (draft.format === 'pagerduty' && draft.routingKey.trim() !== '') options.routing_key = draft.routingKey.trim();
  return {
    ok: true,
    value: {
      url: draft.url.trim(),
      headers: headers.value,
      ...(draft.format === '' ? {} : { format: draft.format }),
      ...(template.value === undefined ? {} : { template: template.value }),
      ...(Object.keys(options).length === 0 ? {} : { options }),
    },
  };
}

/** What the service would answer a save with (the shared save-time check), or null when it would accept it. */
export function formatProblem(webhook: LowBalanceWebhookView | undefined): string | null {
  if (webhook === undefined) return null;
  return validateFormatConfig({ format: webhook.format, options: webhook.options, template: webhook.template });
}

export interface SettingsUpdate {
  low_balance_threshold?: number;
  low_balance_webhook?: LowBalanceWebhookView | null;
  low_balance_email?: string | null;
}

/**
 * The PUT body: the threshold always; the webhook and e-mail only when changed (the service merges), null when
 * removed. What the service would refuse (its own rules, low-balance-rules.ts) is refused here, before the paid call;
 * so is a changed webhook still holding a redacted value: saving it would store "***".
 */
export function updateOf(draft: Draft, saved: SettingsView): Parsed<SettingsUpdate> {
  const threshold = Number(draft.threshold);
  if (draft.threshold.trim() === '' || !Number.isInteger(threshold) || threshold < 0) {
    return { ok: false, error: 'Invalid threshold: must be a whole number of credits, 0 to turn notifications off' };
  }
  const thresholdRule = thresholdProblem(threshold);
  if (thresholdRule !== null) return { ok: false, error: thresholdRule };
  const update: SettingsUpdate = { low_balance_threshold: threshold };
  const email = draft.email.trim();
  if (email !== (saved.low_balance_email ?? '')) {
    const emailRule = email === '' ? null : emailProblem(email);
    if (emailRule !== null) return { ok: false, error: emailRule };
    update.low_balance_email = email === '' ? null : email;
  }
  const webhook = webhookOf(draft, saved.low_balance_webhook);
  if (!webhook.ok) return webhook;
  const before = webhookOf(draftOf(saved), saved.low_balance_webhook);
  if (JSON.stringify(webhook.value) !== JSON.stringify(before.ok ? before.value : undefined)) {
    const secret = redactedName(webhook.value);
    if (secret !== undefined)
      return { ok: false, error: `Enter ${secret} again: the service shows saved secrets as ${REDACTED}` };
    if (webhook.value !== undefined) {
      const rule = webhookUrlProblem(webhook.value.url) ?? webhookContentProblem(webhook.value);
      if (rule !== null) return { ok: false, error: rule };
    }
    update.low_balance_webhook = webhook.value ?? null;
  }
  return { ok: true, value: update };
}

function redactedName(webhook: LowBalanceWebhookView | undefined): string | undefined {
  for (const [name, value] of Object.entries(webhook?.headers ?? {}))
    if (value === REDACTED) return `the value of header ${name}`;
  for (const [name, value] of Object.entries(webhook?.options ?? {})) if (value === REDACTED) return name;
  return undefined;
}
