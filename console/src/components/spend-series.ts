/**
 * GET /token/spend's rows (only non-zero periods) turned into what the chart draws: every period from `from` to `to`,
 * each with its credits per category, plus totals. Pure, so the chart and its table read the same numbers.
 */
import { LOG_CATEGORIES } from '../../../src/ledger/log-entry.js';
import type { OkBody } from '../api-types.js';

export type SpendAnswer = OkBody<'spendSummary'>;
export type SpendPeriod = SpendAnswer['by'];

export interface Period {
  /** Epoch ms of the period's start (UTC). */
  readonly start: number;
  /** Credits per category, only categories with credits. */
  readonly credits: ReadonlyMap<string, number>;
  readonly total: number;
}

export interface SpendView {
  readonly by: SpendPeriod;
  readonly periods: readonly Period[];
  /** Categories that spent credits, in the log's category order. */
  readonly categories: readonly string[];
  readonly totals: ReadonlyMap<string, number>;
  readonly total: number;
  readonly calls: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function spendView(answer: SpendAnswer): SpendView {
  const step = answer.by === 'hour' ? HOUR : DAY;
  const first = Date.parse(answer.from);
  const last = Date.parse(answer.to);
  const byStart = new Map<number, Map<string, number>>();
  const totals = new Map<string, number>();
  let calls = 0;
  for (const row of answer.series) {
    calls += row.calls;
    if (row.credits === 0) continue;
    const start = Date.parse(row.start);
    const credits = byStart.get(start) ?? new Map<string, number>();
    credits.set(row.endpoint, (credits.get(row.endpoint) ?? 0) + row.credits);
    byStart.set(start, credits);
    totals.set(row.endpoint, (totals.get(row.endpoint) ?? 0) + row.credits);
  }
  const periods: Period[] = [];
  for (let start = first; start <= last; start += step) {
    const credits = byStart.get(start) ?? new Map<string, number>();
    periods.push({ start, credits, total: sum(credits.values()) });
  }
  // Categories unknown to this console (a newer service) still show, after the known ones.
  const known: readonly string[] = LOG_CATEGORIES;
  const categories = [
    ...known.filter((name) => totals.has(name)),
    ...[...totals.keys()].filter((name) => !known.includes(name)).sort(),
  ];
  return { by: answer.by, periods, categories, totals, total: sum(totals.values()), calls };
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** A round number at or above `value`: 1, 2, 5 × 10^k. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

/** Gridlines for a chart whose tallest bar is `max`: round steps (at most about 5), the top one at or above `max`. */
export function axisTicks(max: number): number[] {
  const step = niceCeiling(Math.max(max, 1) / 4);
  const top = step * Math.max(1, Math.ceil(max / step));
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return ticks;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (value: number): string => String(value).padStart(2, '0');

/** Labels in UTC, as the service sums: "Mon 23" for a day, "14:00" for an hour. */
export const dayLabel = (start: number): string => {
  const date = new Date(start);
  return `${WEEKDAYS[date.getUTCDay()] ?? ''} ${date.getUTCDate()}`;
};
export const hourLabel = (start: number): string => `${pad(new Date(start).getUTCHours())}:00`;
export const periodLabel = (by: SpendPeriod, start: number): string =>
  by === 'day' ? dayLabel(start) : `${dayLabel(start)}, ${hourLabel(start)}`;
