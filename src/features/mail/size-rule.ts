import type { EmailAddress, InboundEmailPayload } from '../formats/index.js';

/**
 * The 1 MiB rule (SPEC "Inbound email payload", DECISIONS "Inbound e-mail"): a payload whose JSON is
 * larger than the limit first loses attachment metadata from the end until it fits, then `html` is
 * cut, then `text`, and `"truncated": true` is added. Sizes are UTF-8 bytes of JSON.stringify.
 *
 * Beyond the rule, for messages that are large for other reasons (thousands of header lines or
 * recipients), a last resort empties `headers` and `raw`, then shortens `subject` and the address
 * lists, so no payload ever exceeds the limit.
 */

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** Bytes one UTF-16 unit (or surrogate pair, returned as `units` 2) takes inside a JSON string. */
function unitCost(s: string, i: number): { bytes: number; units: 1 | 2 } {
  const c = s.charCodeAt(i);
  if (c === 0x22 || c === 0x5c) return { bytes: 2, units: 1 };
  if (c < 0x20) return { bytes: c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6, units: 1 };
  if (c < 0x80) return { bytes: 1, units: 1 };
  if (c < 0x800) return { bytes: 2, units: 1 };
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    // A well-formed pair is one 4-byte character; a lone surrogate is escaped as \uXXXX.
    return next >= 0xdc00 && next <= 0xdfff ? { bytes: 4, units: 2 } : { bytes: 6, units: 1 };
  }
  if (c >= 0xdc00 && c <= 0xdfff) return { bytes: 6, units: 1 };
  return { bytes: 3, units: 1 };
}

/** UTF-8 bytes of JSON.stringify(s), quotes included. */
export function jsonStringBytes(s: string): number {
  let bytes = 2;
  for (let i = 0; i < s.length; ) {
    const cost = unitCost(s, i);
    bytes += cost.bytes;
    i += cost.units;
  }
  return bytes;
}

/** The longest prefix of `s` (never half a surrogate pair) whose JSON string takes at most `budget` bytes. */
export function fitJsonString(s: string, budget: number): string {
  let bytes = 2;
  let i = 0;
  while (i < s.length) {
    const cost = unitCost(s, i);
    if (bytes + cost.bytes > budget) break;
    bytes += cost.bytes;
    i += cost.units;
  }
  return s.slice(0, i);
}

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

export function applySizeRule(original: InboundEmailPayload, limit: number): SizedPayload {
  const json = JSON.stringify(original);
  let size = Buffer.byteLength(json, 'utf8');
  if (size <= limit) return { payload: original, truncated: false, json };
  const payload: InboundEmailPayload = { ...original, attachments: [...original.attachments], truncated: true };
  // Counted, not re-serialised: the flag is new (appended) or replaces a boolean in place.
  size += original.truncated === undefined ? TRUNCATED_FIELD_BYTES : jsonBytes(true) - jsonBytes(original.truncated);

  while (size > limit && payload.attachments.length > 0) {
    const last = payload.attachments.pop();
    size -= jsonBytes(last) + (payload.attachments.length > 0 ? 1 : 0); // the element and its comma
  }
  size = cutField(payload, 'html', size, limit);
  size = cutField(payload, 'text', size, limit);
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

/** Cuts `payload[field]` so the whole fits when it can; returns the new total size. */
function cutField(payload: InboundEmailPayload, field: 'html' | 'text', size: number, limit: number): number {
  const value = payload[field];
  if (size <= limit || value === undefined) return size;
  const current = jsonStringBytes(value);
  const cut = fitJsonString(value, current - (size - limit));
  payload[field] = cut;
  return size - current + jsonStringBytes(cut);
}
