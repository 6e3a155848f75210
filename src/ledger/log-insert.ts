import type { Store } from '../store/store.js';
import type { BulkInsert } from '../store/bulk-insert.js';
import type { LogRecord } from './log-entry.js';
import { ADD_HOURLY_SPEND, hourlySpendRows } from './spend-aggregate.js';
import { ADD_DAILY_SPEND, dailySpendRows } from './daily-spend.js';

/** The log table's columns, in the order rows are written (and read back by the logs feature). */
export const LOG_COLUMNS =
  'id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance, delivery_id';
const COLUMN_COUNT = 12;
/** Only operator rows carry a note: a batch without one writes the columns above and nothing more. */
const NOTE_COLUMN = 'note';

/** The parameters of every row in one array, in LOG_COLUMNS order, without a throwaway array per row (the hot batch). */
function flatValues(records: readonly LogRecord[], withNote: boolean): unknown[] {
  const params = new Array<unknown>(records.length * (withNote ? COLUMN_COUNT + 1 : COLUMN_COUNT));
  let i = 0;
  for (let row = 0; row < records.length; row++) {
    const r = records[row] as LogRecord;
    params[i++] = r.id;
    params[i++] = r.walletId;
    params[i++] = r.method;
    params[i++] = r.path;
    params[i++] = r.endpoint;
    params[i++] = r.statusCode;
    params[i++] = r.responseTimeMs;
    params[i++] = r.error ?? null;
    params[i++] = r.createdAt;
    params[i++] = r.cost;
    params[i++] = r.balance;
    params[i++] = r.deliveryId ?? null;
    if (withNote) params[i++] = r.note ?? null;
  }
  return params;
}

/**
 * The log table as a bulk insert: the store writes a batch its fastest way on each engine, with its spend totals
 * (hourly per wallet, daily for the service) in the same write.
 */
export const LOG_INSERT: BulkInsert = {
  table: 'logs',
  columns: LOG_COLUMNS.split(', '),
  types: ['text', 'bigint', 'text', 'text', 'text', 'int', 'int', 'text', 'bigint', 'bigint', 'bigint', 'text'],
  also: [ADD_HOURLY_SPEND, ADD_DAILY_SPEND],
};
const LOG_INSERT_WITH_NOTE: BulkInsert = {
  ...LOG_INSERT,
  columns: [...LOG_INSERT.columns, NOTE_COLUMN],
  types: [...LOG_INSERT.types, 'text'],
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
  const withNote = records.some((record) => record.note !== undefined);
  await store.insertRows(withNote ? LOG_INSERT_WITH_NOTE : LOG_INSERT, flatValues(records, withNote), {
    alsoRows: spendRowsOf(records),
    syncLater,
  });
}
