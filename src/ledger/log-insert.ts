import type { Store } from '../store/store.js';
import type { BulkInsert } from '../store/bulk-insert.js';
import type { LogRecord } from './log-entry.js';
import { encodeLogBatches, LOG_BATCH_COLUMNS } from './log-batches.js';
import { ADD_HOURLY_SPEND, hourlySpendRows } from './spend-aggregate.js';
import { ADD_DAILY_SPEND, dailySpendRows } from './daily-spend.js';

/**
 * The call log as a bulk insert: one row per wallet, category and batch (log-batches.ts); the store writes a batch its
 * fastest way on each engine, with its spend totals (hourly per wallet, daily for the service) in the same write.
 */
export const LOG_INSERT: BulkInsert = {
  table: 'log_batches',
  columns: LOG_BATCH_COLUMNS,
  types: ['bigint', 'text', 'bigint', 'bigint', 'int', 'text'],
  also: [ADD_HOURLY_SPEND, ADD_DAILY_SPEND],
};

/** The spend totals a batch adds, one list of rows per statement of LOG_INSERT.also (the one place they are computed). */
export function spendRowsOf(
  records: readonly LogRecord[],
): [Array<[number, number, string, number, number]>, Array<[number, number]>] {
  return [hourlySpendRows(records), dailySpendRows(records)];
}

/**
 * Writes a batch and, in the same atomic write, its hourly spend sums (spend-aggregate.ts) and the service's daily ones (daily-spend.ts).
 * `syncLater`: the batch's commit does not wait for the disk (READ_CHARGES=deferred): log rows are written after the
 * answers they record and acknowledged to no one, so a power cut in the window costs what a crash already costs
 * (the rows still in memory), and the batch no longer brings an fsync of its own.
 */
export async function insertLogs(store: Store, records: readonly LogRecord[], syncLater = false): Promise<void> {
  if (records.length === 0) return;
  await store.insertRows(LOG_INSERT, encodeLogBatches(records), {
    alsoRows: spendRowsOf(records),
    syncLater,
  });
}
