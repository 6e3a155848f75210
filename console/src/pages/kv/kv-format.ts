/** How key-value numbers read: sizes, capped counts, remaining time to live, TTL units. */
import { MAX_TTL_SECONDS, parseTtl } from '../../../../src/features/kv/kv.rules.js';
import { formatInstant, relativeTime } from '../../components/ui.js';

const encoder = new TextEncoder();

/** A value's size as the service counts it: UTF-8 bytes. */
export const utf8Bytes = (text: string): number => encoder.encode(text).length;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString()} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;
}

/** "1,000+" when the service counted only part of a huge bucket. */
export const formatCount = (count: number, capped: boolean | undefined): string =>
  `${count.toLocaleString()}${capped ? '+' : ''}`;

/** "expires in 29 d" (or "expired 5 s ago" for a row listed just before it lapsed). */
export function expiresLabel(expiresAt: string, now = Date.now()): string {
  const relative = relativeTime(expiresAt, now);
  return Date.parse(expiresAt) > now ? `expires ${relative}` : `expired ${relative}`;
}

/** The exact expiry in the reader's time zone, for the tooltip. */
export const exactTime = (iso: string): string => formatInstant(iso);

export const TTL_UNITS = [
  { name: 'seconds', seconds: 1 },
  { name: 'minutes', seconds: 60 },
  { name: 'hours', seconds: 3600 },
  { name: 'days', seconds: 86400 },
] as const;
export type TtlUnit = (typeof TTL_UNITS)[number]['name'];

const factorOf = (unit: TtlUnit): number => TTL_UNITS.find((candidate) => candidate.name === unit)?.seconds ?? 1;

/** The `ttl` query value for an amount in a unit ('' when empty: the service's 30 days); only for an amount ttlProblem accepts. */
export function ttlQuery(amount: string, unit: TtlUnit): string {
  const trimmed = amount.trim();
  return trimmed === '' ? '' : String(Number(trimmed) * factorOf(unit));
}

/**
 * Why the service would refuse this time to live, said in the unit chosen ("at most 30 days", not 2592000 seconds);
 * null when it would take it. The seconds are then checked by the service's own rule (kv.rules.ts).
 */
export function ttlProblem(amount: string, unit: TtlUnit): string | null {
  const trimmed = amount.trim();
  if (trimmed === '') return null;
  const most = Math.floor(MAX_TTL_SECONDS / factorOf(unit));
  const rule = `Time to live: must be a whole number of ${unit} from 0 to ${most.toLocaleString('en')} (30 days)`;
  if (!/^\d+$/.test(trimmed)) return rule;
  return parseTtl(ttlQuery(trimmed, unit)).ok ? null : rule;
}

/**
 * The remaining time to live as the edit form's amount and unit: whole minutes from two minutes up, in the largest
 * unit that says it exactly ("3 minutes", "2 days", "1441 minutes"), so saving keeps the entry's expiry where it was.
 */
export function remainingTtl(expiresAt: string, now = Date.now()): { amount: string; unit: TtlUnit } {
  let seconds = Math.max(1, Math.round((Date.parse(expiresAt) - now) / 1000));
  if (seconds >= 120) seconds = Math.round(seconds / 60) * 60;
  seconds = Math.min(seconds, MAX_TTL_SECONDS);
  const unit = [...TTL_UNITS].reverse().find((candidate) => seconds % candidate.seconds === 0) ?? TTL_UNITS[0];
  return { amount: String(seconds / unit.seconds), unit: unit.name };
}
