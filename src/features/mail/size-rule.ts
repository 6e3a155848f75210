import type { EmailAddress, InboundEmailPayload } from '../../formats/index.js';
import { fitJsonString, jsonBytes, jsonStringBytes } from '../../formats/index.js';

/**
 * The 1 MiB rule (docs/contract.md#inbound-e-mail): a payload whose JSON is
 * larger than the limit first loses attachment metadata from the end until it fits, then `html` is
 * cut, then `text`, and `"truncated": true` is added. Sizes are UTF-8 bytes of JSON.stringify.
 *
 * Beyond the rule, for messages that are large for other reasons (thousands of header lines or
 * recipients), a last resort empties `headers` and `raw`, then shortens `subject` and the address
 * lists, so no payload ever exceeds the limit.
 */

export { fitJsonString, jsonBytes, jsonStringBytes } from '../../formats/index.js';

export interface SizedPayload {
  readonly payload: InboundEmailPayload;
  /** True when anything was dropped or cut. */
  readonly truncated: boolean;
  /** JSON.stringify(payload): measured here, reused as the body when no format applies. */
  readonly json: string;
}

const LAST_RESORT_ADDRESSES = 100;
const LAST_RESORT_CHARS = 998; // RFC 5322 line length
/** `,"truncated":true` appended to a payload that had no such key. */
const TRUNCATED_FIELD_BYTES = Buffer.byteLength(',"truncated":true');

/**
 * `measure` is jsonStringBytes, or a memo of it shared by the mailboxes of one message: `text` and
 * `html` (up to the whole decoded message) are measured, never serialised, before they are cut.
 */
export function applySizeRule(
  original: InboundEmailPayload,
  limit: number,
  measure: (s: string) => number = jsonStringBytes,
): SizedPayload {
  let size = measuredBytes(original, measure);
  if (size <= limit) return { payload: original, truncated: false, json: JSON.stringify(original) };
  const payload: InboundEmailPayload = { ...original, attachments: [...original.attachments], truncated: true };
  // Counted, not re-serialised: the flag is new (appended) or replaces a boolean in place.
  size += original.truncated === undefined ? TRUNCATED_FIELD_BYTES : jsonBytes(true) - jsonBytes(original.truncated);

  while (size > limit && payload.attachments.length > 0) {
    const last = payload.attachments.pop();
    size -= jsonBytes(last) + (payload.attachments.length > 0 ? 1 : 0); // the element and its comma
  }
  const fit: Fit = { limit, measure };
  size = cutField(payload, 'html', size, fit);
  size = cutField(payload, 'text', size, fit);
  if (size > limit) {
    payload.headers = {};
    delete payload.raw;
    size = jsonBytes(payload);
  }
  if (size > limit) {
    const shorten = (address: EmailAddress): EmailAddress => ({
      email: address.email.slice(0, LAST_RESORT_CHARS),
      ...(address.name === undefined ? {} : { name: address.name.slice(0, LAST_RESORT_CHARS) }),
    });
    payload.subject = payload.subject.slice(0, LAST_RESORT_CHARS);
    payload.from = shorten(payload.from);
    payload.to = payload.to.slice(0, LAST_RESORT_ADDRESSES).map(shorten);
    payload.cc = payload.cc.slice(0, LAST_RESORT_ADDRESSES).map(shorten);
  }
  return { payload, truncated: true, json: JSON.stringify(payload) };
}

/**
 * For a custom template, which cuts what it renders by its own rule (template-engine.ts): `text` and `html` longer than
 * the whole limit are cut to it first, so each mailbox's render reads at most the limit of each (never the whole
 * decoded message again); `truncated` is left to the template, which cuts such a value further whenever it uses it.
 */
export function capForTemplate(
  original: InboundEmailPayload,
  limit: number,
  measure: (s: string) => number = jsonStringBytes,
): InboundEmailPayload {
  const capped = { ...original };
  for (const field of ['text', 'html'] as const) {
    const value = capped[field];
    if (value !== undefined && measure(value) > limit) capped[field] = fitJsonString(value, limit);
  }
  return capped;
}

/** The size a payload must fit in, and how its strings are measured. */
interface Fit {
  readonly limit: number;
  readonly measure: (s: string) => number;
}

/** Cuts `payload[field]` so the whole fits when it can; returns the new total size. */
function cutField(payload: InboundEmailPayload, field: 'html' | 'text', size: number, { limit, measure }: Fit): number {
  const value = payload[field];
  if (size <= limit || value === undefined) return size;
  const current = measure(value);
  const cut = fitJsonString(value, current - (size - limit));
  payload[field] = cut;
  return size - current + jsonStringBytes(cut);
}

/** Bytes of JSON.stringify(payload), entry by entry: the two big strings are measured in place. */
function measuredBytes(payload: InboundEmailPayload, measure: (s: string) => number): number {
  let bytes = 1;
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    const big = (key === 'text' || key === 'html') && typeof value === 'string';
    bytes += jsonStringBytes(key) + 1 + (big ? measure(value) : jsonBytes(value)) + 1; // `"key":value` and its comma or brace
  }
  return bytes === 1 ? 2 : bytes;
}
