import type { Unit } from '../store/store.js';
import { DAY } from '../lib/time.js';
import type { LogRecord } from './log-entry.js';

const ADD_SPEND = `
INSERT INTO spend_per_day (day, credits) VALUES ($1, $2)
ON CONFLICT (day) DO UPDATE SET credits = spend_per_day.credits + excluded.credits`;

/** The same sums in SQL, for PostgreSQL's one-statement log batch (BulkInsert.postgresAlso): 86400000 ms is a day. */
export const ADD_DAILY_SPEND_FROM_BATCH = `INSERT INTO spend_per_day (day, credits)
SELECT created_at - created_at % 86400000, SUM(cost) FROM batch WHERE cost > 0 GROUP BY 1 ORDER BY 1
ON CONFLICT (day) DO UPDATE SET credits = spend_per_day.credits + excluded.credits`;

/**
 * Credits the whole service spent per UTC day (the operator's stats, GET /manage/stats), added up from each log
 * batch in the batch's own unit, so a batch tried again is counted once: one statement per day the batch spans
 * (nearly always one), none for a batch that spent nothing. Kept beyond the log's 7 days and beyond wallet deletion.
 */
export async function addDailySpend(tx: Unit, records: readonly LogRecord[]): Promise<void> {
  let day = -1;
  let credits = 0;
  for (const record of records) {
    if (record.cost <= 0) continue;
    const recordDay = record.createdAt - (record.createdAt % DAY);
    if (recordDay !== day && credits > 0) {
      await tx.run(ADD_SPEND, [day, credits]);
      credits = 0;
    }
    day = recordDay;
    credits += record.cost;
  }
  if (credits > 0) await tx.run(ADD_SPEND, [day, credits]);
}
