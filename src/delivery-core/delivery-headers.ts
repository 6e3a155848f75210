/**
 * The headers of a delivery: those the sender owns (the transport's, and the signature's, written by signing.ts)
 * and the save-time rules for the custom ones a caller adds (webhooks and low-balance notifications). Pure: the
 * console checks its drafts with it.
 */
import { quotedName } from '../lib/cut-text.js';

export const MAX_HEADERS = 20;
export const MAX_HEADER_VALUE_LENGTH = 1000;
/** Names come back in full on every read of the webhook: bounded, as real header names are short. */
export const MAX_HEADER_NAME_LENGTH = 256;

/** The Standard Webhooks headers each signed attempt carries (signing.ts). */
export const SIGNATURE_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex
const UNSAFE_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Headers the transport owns: forging them would confuse the receiver or smuggle requests. */
const FORBIDDEN = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'content-type',
  'user-agent',
  ...Object.values(SIGNATURE_HEADERS),
]);

/**
 * A header name written twice in a list a person typed (names ignore case), as checkHeaders words it; null when none.
 * For the forms that build the headers object from lines or rows: an object keeps one of the two without a word.
 */
export function repeatedHeaderProblem(names: readonly string[], field = 'headers'): string | null {
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.trim().toLowerCase();
    if (seen.has(lower)) return `Invalid ${field}: "${name.trim()}" is given twice (header names ignore case)`;
    seen.add(lower);
  }
  return null;
}

export function checkHeaders(headers: Record<string, string>, field = 'headers'): string | null {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) return `Invalid ${field}: at most ${MAX_HEADERS} headers`;
  const seen = new Set<string>();
  for (const name of names) {
    if (name.length > MAX_HEADER_NAME_LENGTH)
      return `Invalid ${field}: "${quotedName(name)}" is longer than ${MAX_HEADER_NAME_LENGTH} characters`;
    if (!TOKEN.test(name)) return `Invalid ${field}: "${name}" is not a valid header name`;
    const lower = name.toLowerCase();
    if (FORBIDDEN.has(lower)) return `Invalid ${field}: "${name}" cannot be set`;
    // One header, two values: which one the receiver would get depends on the HTTP client.
    if (seen.has(lower)) return `Invalid ${field}: "${name}" is given twice (header names ignore case)`;
    seen.add(lower);
    const value = headers[name] ?? '';
    if (value.length > MAX_HEADER_VALUE_LENGTH)
      return `Invalid ${field}: value of "${name}" is longer than ${MAX_HEADER_VALUE_LENGTH} characters`;
    if (UNSAFE_VALUE.test(value)) return `Invalid ${field}: value of "${name}" contains control characters`;
  }
  return null;
}

/** Header values never leave the service once saved: names are shown, values are `***`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, '***']));
}
