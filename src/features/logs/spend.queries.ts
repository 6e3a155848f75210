import type { Sql } from '../../store/store.js';
import { DAY } from '../../lib/time.js';

export type SpendPeriod = 'hour' | 'day';

/** One period's spend in one category; `start` is the period's start (epoch ms, UTC). */
export interface SpendRow {
  start: number;
  endpoint: string;
  credits: number;
  calls: number;
}

// A wallet's rows are a range of the primary key (wallet, hour, category): at most 8 days × 24 × 9 categories.
const BY_HOUR =
  'SELECT hour AS start, endpoint, credits, calls FROM spend_hourly WHERE wallet_id = $1 AND hour >= $2 ORDER BY hour, endpoint';
const BY_DAY = `SELECT hour - hour % ${DAY} AS start, endpoint, SUM(credits) AS credits, SUM(calls) AS calls FROM spend_hourly
WHERE wallet_id = $1 AND hour >= $2 GROUP BY hour - hour % ${DAY}, endpoint ORDER BY start, endpoint`;

/** A wallet's spend per period and category since `from` (a period start), oldest first. */
export function spendSeries(sql: Sql, walletId: number, by: SpendPeriod, from: number): Promise<SpendRow[]> {
  return sql.all<SpendRow>(by === 'hour' ? BY_HOUR : BY_DAY, [walletId, from]);
}
