/** Bucket and key rules (docs/contract.md#kv), kept pure so they are tested apart from HTTP. */
import { dotSegmentProblem } from '../../lib/path-segment.js';

export const MAX_NAME_LENGTH = 30;
export const MAX_VALUE_LENGTH = 1000;
export const MAX_TTL_SECONDS = 2_592_000;
/** Listing pages (keys or buckets): `limit` is 1 to 100, 20 when absent. */
export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 20;
/**
 * A bucket listing counts at most this many entries of each bucket (the first, in key order), and a page at most
 * BUCKET_PAGE_COUNT_BUDGET in all, so that a call's work stays bounded however many keys a wallet holds.
 */
export const BUCKET_COUNT_CAP = 1000;
/** Entries a page of the bucket listing counts in all: a page of more than 10 buckets counts fewer of each. */
export const BUCKET_PAGE_COUNT_BUDGET = 10_000;

/** How many entries of each bucket a page of `limit` buckets counts: 1000 up to 10 buckets a page, 500 at 20, 100 at 100. */
export const bucketCountCap = (limit: number): number =>
  Math.min(BUCKET_COUNT_CAP, Math.floor(BUCKET_PAGE_COUNT_BUDGET / limit));

// eslint-disable-next-line no-control-regex
const CONTROL_OR_SLASH = /[\u0000-\u001f\u007f/]/;

const codePoints = (value: string): number => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

/** A listing's `cursor` is the last key or bucket of the previous page, so it follows the key rule. */
export function checkName(field: 'bucket' | 'key' | 'cursor', value: string): string | null {
  const length = codePoints(value);
  if (length < 1 || length > MAX_NAME_LENGTH) return `Invalid ${field}: must be 1 to ${MAX_NAME_LENGTH} characters`;
  if (CONTROL_OR_SLASH.test(value)) return `Invalid ${field}: must not contain control characters or /`;
  // The clients run this rule before sending; the service never receives such a name (path-segment.ts).
  const dots = field === 'cursor' ? null : dotSegmentProblem(field, value);
  if (dots !== null) return dots;
  if (field === 'bucket' && value.startsWith('reserved-')) return 'Invalid bucket: must not start with reserved-';
  if (field === 'bucket' && value.endsWith('---')) return 'Invalid bucket: must not end with ---';
  return null;
}

/** A value's address, checked as the routes check it: its bucket, then its key. */
export function checkKeyPath(bucket: string, key: string): string | null {
  return checkName('bucket', bucket) ?? checkName('key', key);
}

/** A listing's `prefix` (empty: every key or bucket) and `cursor`, checked as the listings check them. */
export function checkPaging(prefix: string, cursor: string | undefined): string | null {
  return checkPrefix(prefix) ?? (cursor === undefined ? null : checkName('cursor', cursor));
}

/** A listing's `prefix`: empty lists every key; otherwise a beginning of a key, so at most a key's length. */
export function checkPrefix(value: string): string | null {
  if (codePoints(value) > MAX_NAME_LENGTH) return `Invalid prefix: must be at most ${MAX_NAME_LENGTH} characters`;
  if (CONTROL_OR_SLASH.test(value)) return 'Invalid prefix: must not contain control characters or /';
  return null;
}

/**
 * The least string above every string that starts with `prefix`, in code-point order (which is UTF-8 byte order):
 * the listing's upper bound, so the index range ends where the prefix does. Undefined when nothing is above (empty prefix).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix, (char) => char.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = points.pop() ?? 0;
    if (last < 0x10ffff) {
      // UTF-8 has no surrogates: the code point after U+D7FF is U+E000.
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}

export function checkValue(value: string): string | null {
  return codePoints(value) > MAX_VALUE_LENGTH ? `Invalid value: must be at most ${MAX_VALUE_LENGTH} characters` : null;
}

/** `ttl` as sent in the query string: absent or 0 mean the maximum; anything but an integer 0..max is refused. */
export function parseTtl(raw: string | undefined): { ok: true; seconds: number } | { ok: false; error: string } {
  if (raw === undefined) return { ok: true, seconds: MAX_TTL_SECONDS };
  if (!/^\d{1,8}$/.test(raw) || Number(raw) > MAX_TTL_SECONDS) {
    return { ok: false, error: `Invalid ttl: must be an integer from 0 to ${MAX_TTL_SECONDS}` };
  }
  const seconds = Number(raw);
  return { ok: true, seconds: seconds === 0 ? MAX_TTL_SECONDS : seconds };
}
