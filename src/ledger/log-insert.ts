import type { Store } from '../store/store.js';
import type { LogRecord } from './log-entry.js';

/** The log table's columns, in the order rows are written (and read back by the logs feature). */
export const LOG_COLUMNS = 'id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance';
const COLUMN_COUNT = 11;

/** The parameters of rows `start`..`end` in one array, in LOG_COLUMNS order, without a throwaway array per row (the hot batch). */
function flatValues(records: readonly LogRecord[], start: number, end: number): unknown[] {
  const params = new Array<unknown>((end - start) * COLUMN_COUNT);
  let i = 0;
  for (let row = start; row < end; row++) {
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
  }
  return params;
}

/** PostgreSQL takes a whole batch in one fixed statement through column arrays. */
const PG_BATCH = `INSERT INTO logs (${LOG_COLUMNS})
SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[])`;
/** SQLite: multi-row inserts of up to this many rows; one statement text per size, prepared once. */
const SQLITE_CHUNK = 50;
const sqliteInsert = (rows: number): string => {
  const tuples = Array.from({ length: rows }, (_, r) => `(${Array.from({ length: COLUMN_COUNT }, (_, c) => `$${r * COLUMN_COUNT + c + 1}`).join(', ')})`);
  return `INSERT INTO logs (${LOG_COLUMNS}) VALUES ${tuples.join(', ')}`;
};
const SQLITE_STATEMENTS = Array.from({ length: SQLITE_CHUNK + 1 }, (_, rows) => (rows === 0 ? '' : sqliteInsert(rows)));

export async function insertLogs(store: Store, records: readonly LogRecord[]): Promise<void> {
  if (records.length === 0) return;
  if (store.dialect === 'postgres') {
    const columns: unknown[][] = Array.from({ length: COLUMN_COUNT }, () => []);
    flatValues(records, 0, records.length).forEach((value, i) => columns[i % COLUMN_COUNT]?.push(value));
    await store.writeOne(PG_BATCH, columns);
    return;
  }
  await store.write(async (tx) => {
    for (let start = 0; start < records.length; start += SQLITE_CHUNK) {
      const end = Math.min(records.length, start + SQLITE_CHUNK);
      await tx.run(SQLITE_STATEMENTS[end - start] as string, flatValues(records, start, end));
    }
  });
}
