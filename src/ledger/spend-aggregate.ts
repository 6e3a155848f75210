import type { ManyStatement } from '../store/store.js';
import { DAY, HOUR } from '../lib/time.js';
import type { LogRecord } from './log-entry.js';

/**
 * Credits spent and calls made per wallet, UTC hour and category (`spend_hourly`, read by GET /token/spend),
 * added up from each log batch and written with it, in its own write: a batch that fails and is tried again is
 * counted once. Every logged call counts as a call; only positive costs count as credits spent.
 */
export const ADD_HOURLY_SPEND = {
  sql: `INSERT INTO spend_hourly (wallet_id, hour, endpoint, credits, calls) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (wallet_id, hour, endpoint) DO UPDATE SET credits = spend_hourly.credits + excluded.credits, calls = spend_hourly.calls + excluded.calls`,
  columns: {
    types: ['bigint', 'bigint', 'text', 'bigint', 'bigint'],
    sql: (rows) => `INSERT INTO spend_hourly (wallet_id, hour, endpoint, credits, calls)
SELECT * FROM ${rows}
ON CONFLICT (wallet_id, hour, endpoint) DO UPDATE SET credits = spend_hourly.credits + excluded.credits, calls = spend_hourly.calls + excluded.calls`,
  },
  touches: ['spend_hourly'],
} as const satisfies ManyStatement;

/** Rows are kept 8 days (the sweeper's cut): the 7 days GET /token/spend reads, and a day's margin. */
export const SPEND_RETENTION_MS = 8 * DAY;

const hourOf = (epochMs: number): number => epochMs - (epochMs % HOUR);

/** Key order: (wallet, hour, category). Concurrent batches (instances on PostgreSQL) lock rows in this order, so never deadlock. */
function compareKeys(a: LogRecord, b: LogRecord): number {
  if (a.walletId !== b.walletId) return a.walletId - b.walletId;
  const hours = hourOf(a.createdAt) - hourOf(b.createdAt);
  if (hours !== 0) return hours;
  return a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
}

/**
 * One row per (wallet, hour, category) of the batch, summed in memory, in key order. Sorting a copy of the
 * batch's references is the only allocation besides the rows themselves (a batch holds ≤ 100 records).
 */
export function hourlySpendRows(records: readonly LogRecord[]): Array<[number, number, string, number, number]> {
  const sorted = records.slice().sort(compareKeys);
  const rows: Array<[number, number, string, number, number]> = [];
  let current: [number, number, string, number, number] | undefined;
  let previous: LogRecord | undefined;
  for (const record of sorted) {
    const credits = record.cost > 0 ? record.cost : 0;
    if (current !== undefined && previous !== undefined && compareKeys(previous, record) === 0) {
      current[3] += credits;
      current[4] += 1;
    } else {
      current = [record.walletId, hourOf(record.createdAt), record.endpoint, credits, 1];
      rows.push(current);
    }
    previous = record;
  }
  return rows;
}
