import type { ManyStatement } from '../store/store.js';
import { DAY } from '../lib/time.js';
import type { LogRecord } from './log-entry.js';

/**
 * Credits the whole service spent per UTC day (the operator's stats, GET /manage/stats), added up from each log
 * batch and written with it, in its own write, so a batch tried again is counted once: one row per day the batch
 * spans (nearly always one), none for a batch that spent nothing. Kept beyond the log's 7 days and beyond wallet deletion.
 */
export const ADD_DAILY_SPEND = {
  sql: `
INSERT INTO spend_per_day (day, credits) VALUES ($1, $2)
ON CONFLICT (day) DO UPDATE SET credits = spend_per_day.credits + excluded.credits`,
  columns: {
    types: ['bigint', 'bigint'],
    sql: (rows) => `INSERT INTO spend_per_day (day, credits)
SELECT * FROM ${rows}
ON CONFLICT (day) DO UPDATE SET credits = spend_per_day.credits + excluded.credits`,
  },
  touches: ['spend_per_day'],
} as const satisfies ManyStatement;

/** The batch's (day, credits) rows, in day order (the order concurrent batches lock the rows in, so never deadlock). */
export function dailySpendRows(records: readonly LogRecord[]): Array<[number, number]> {
  const days = new Map<number, number>();
  for (const record of records) {
    if (record.cost <= 0) continue;
    const day = record.createdAt - (record.createdAt % DAY);
    days.set(day, (days.get(day) ?? 0) + record.cost);
  }
  return [...days].sort(([a], [b]) => a - b);
}
