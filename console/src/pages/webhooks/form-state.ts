/**
 * The webhook form's draft, and the request bodies it makes: POST for a new webhook, and for an existing one a PATCH
 * of only what changed, because header values and secret options read back as `***` and a wholesale PUT would
 * store those stars.
 */
import type { WebhookView } from './types.js';

export type Mode = 'mailbox' | 'scheduled';
export const FORMATS = ['', 'slack', 'discord', 'teams', 'telegram', 'pagerduty', 'custom'] as const;
export const REDACTED = '***';

export interface HeaderRow {
  readonly name: string;
  readonly value: string;
}

export interface Draft {
  readonly mode: Mode;
  readonly webhookId: string;
  readonly url: string;
  readonly headers: readonly HeaderRow[];
  readonly format: string;
  /** The custom template as typed (JSON text). */
  readonly template: string;
  readonly chatId: string;
  readonly routingKey: string;
  readonly includeAttachments: boolean;
  readonly cron: string;
  readonly timezone: string;
  readonly active: boolean;
  readonly retryAttempts: number;
}

export const EXAMPLE_TEMPLATE = JSON.stringify(
  { text: 'New mail from {{from.name|from.email}}: {{subject}}', body: '{{text|html}}' },
  null,
  2,
);

export function emptyDraft(timezone: string): Draft {
  return {
    mode: 'mailbox',
    webhookId: '',
    url: '',
    headers: [],
    format: '',
    template: EXAMPLE_TEMPLATE,
    chatId: '',
    routingKey: '',
    includeAttachments: true,
    cron: '0 9 * * 1-5',
    timezone,
    active: true,
    retryAttempts: 0,
  };
}

/** The draft of a saved webhook: secret values stay `***` until retyped. */
export function draftOf(view: WebhookView, timezone: string): Draft {
  const base = emptyDraft(view.schedule?.timezone ?? timezone);
  return {
    ...base,
    mode: view.schedule === undefined ? 'mailbox' : 'scheduled',
    webhookId: view.webhookId,
    url: view.webhook,
    headers: Object.entries(view.headers).map(([name, value]) => ({ name, value })),
    format: view.format ?? '',
    template: view.template === undefined ? base.template : JSON.stringify(view.template, null, 2),
    chatId: view.options?.chat_id ?? '',
    routingKey: view.options?.routing_key ?? '',
    includeAttachments: view.includeAttachments ?? true,
    cron: view.schedule?.cron ?? base.cron,
    active: view.schedule?.active ?? true,
    retryAttempts: view.retry?.attempts ?? 0,
  };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The template as JSON, or why it is not. */
export function parseTemplate(text: string): Parsed<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, error: 'Template: must be a JSON object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: `Template: ${error instanceof Error ? error.message : 'invalid JSON'}` };
  }
}

export function headersOf(rows: readonly HeaderRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.name.trim() !== '').map((row) => [row.name.trim(), row.value]));
}

/** The format's options: chat_id for telegram, routing_key for pagerduty; others take none. */
export function optionsOf(draft: Draft): Record<string, string> {
  if (draft.format === 'telegram') return { chat_id: draft.chatId };
  if (draft.format === 'pagerduty') return { routing_key: draft.routingKey };
  return {};
}

/** Mailbox fields as the API takes them (template only for custom). */
function mailboxFields(draft: Draft): Parsed<Record<string, unknown>> {
  const fields: Record<string, unknown> = {
    format: draft.format,
    options: optionsOf(draft),
    includeAttachments: draft.includeAttachments,
  };
  if (draft.format === 'custom') {
    const template = parseTemplate(draft.template);
    if (!template.ok) return template;
    fields.template = template.value;
  }
  return { ok: true, value: fields };
}

const scheduleOf = (draft: Draft) => ({
  cron: draft.cron.trim(),
  timezone: draft.timezone.trim(),
  active: draft.active,
});

/** POST /webhook's body. */
export function createBody(draft: Draft): Parsed<Record<string, unknown>> {
  const body: Record<string, unknown> = { url: draft.url.trim() };
  if (draft.webhookId.trim() !== '') body.webhookId = draft.webhookId.trim();
  const headers = headersOf(draft.headers);
  if (Object.keys(headers).length > 0) body.headers = headers;
  if (draft.retryAttempts > 0) body.retry = { attempts: draft.retryAttempts };
  if (draft.mode === 'scheduled') return { ok: true, value: { ...body, schedule: scheduleOf(draft) } };
  const fields = mailboxFields(draft);
  return fields.ok ? { ok: true, value: { ...body, ...fields.value } } : fields;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A redacted value kept in a changed object would be saved as the three stars themselves. */
function redactedIn(values: Record<string, string>, what: string): string | undefined {
  const hidden = Object.entries(values).find(([, value]) => value === REDACTED);
  return hidden === undefined
    ? undefined
    : `${what} ${hidden[0]}: type its value again (saved values are never shown back)`;
}

/** PATCH /webhook/{id}'s body: only the changed fields; empty when nothing changed. */
export function patchBody(saved: Draft, draft: Draft): Parsed<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (draft.url.trim() !== saved.url) body.url = draft.url.trim();
  const headers = headersOf(draft.headers);
  if (!same(headers, headersOf(saved.headers))) {
    const hidden = redactedIn(headers, 'Header');
    if (hidden !== undefined) return { ok: false, error: hidden };
    body.headers = headers;
  }
  if (draft.retryAttempts !== saved.retryAttempts)
    body.retry = draft.retryAttempts > 0 ? { attempts: draft.retryAttempts } : null;
  if (draft.mode === 'scheduled') {
    const schedule = scheduleOf(draft);
    if (saved.mode !== 'scheduled' || !same(schedule, scheduleOf(saved))) body.schedule = schedule;
    return { ok: true, value: body };
  }
  const fields = mailboxFields(draft);
  if (!fields.ok) return fields;
  const before = mailboxFields(saved);
  if (saved.mode === 'scheduled') body.schedule = null;
  for (const [name, value] of Object.entries(fields.value)) {
    const old = before.ok ? before.value[name] : undefined;
    if (saved.mode === 'scheduled' || !same(value, old)) body[name] = value;
  }
  if (body.options !== undefined) {
    const hidden = redactedIn(body.options as Record<string, string>, 'Option');
    if (hidden !== undefined) return { ok: false, error: hidden };
  }
  return { ok: true, value: body };
}
