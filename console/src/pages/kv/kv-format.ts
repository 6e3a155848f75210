/** How key-value numbers read: sizes, capped counts, remaining time to live, TTL units. */
import { relativeTime } from '../../components/ui.js';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString()} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;
}

/** "1,000+" when the service counted only part of a huge bucket. */
export const formatCount = (count: number, capped: boolean | undefined): string => `${count.toLocaleString()}${capped ? '+' : ''}`;

/** "expires in 29 d" (or "expired 5 s ago" for a row listed just before it lapsed). */
export function expiresLabel(expiresAt: string, now = Date.now()): string {
  const relative = relativeTime(expiresAt, now);
  return Date.parse(expiresAt) > now ? `expires ${relative}` : `expired ${relative}`;
}

/** The exact expiry in the reader's time zone, for the tooltip. */
export const exactTime = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });

export const TTL_UNITS = [
  { name: 'seconds', seconds: 1 },
  { name: 'minutes', seconds: 60 },
  { name: 'hours', seconds: 3600 },
  { name: 'days', seconds: 86400 },
] as const;
export type TtlUnit = (typeof TTL_UNITS)[number]['name'];

/**
 * The `ttl` query value for an amount in a unit; the service checks it (0..2592000, 0 = 30 days) and says what is
 * wrong, so a fractional or out-of-range amount is passed on as typed rather than judged here.
 */
export function ttlQuery(amount: string, unit: TtlUnit): string {
  const trimmed = amount.trim();
  if (trimmed === '') return '';
  const factor = TTL_UNITS.find((candidate) => candidate.name === unit)?.seconds ?? 1;
  const value = Number(trimmed);
  return Number.isFinite(value) ? String(value * factor) : trimmed;
}
