import type { LogRecord } from './log-entry.js';

/**
 * How the call log is stored: one row of `log_batches` per wallet, category and written batch, its entries as one
 * JSON array in order of writing. A call costs no index entry of its own: on SQLite a row per call with the read
 * index cost 2.3 µs of the event loop against well under one for its share of a batch row (bench/RESULTS.md), and on
 * PostgreSQL the database's work per call fell with it. The `logs` view shows the entries as rows, as before.
 *
 * A stored batch spans at most LOG_BATCH_SPAN_MS and holds at most LOG_BATCH_CAPACITY entries, their times never
 * decreasing: so a page bounds which batches can hold entries older than its cursor (logs.page.ts), and an entry's
 * place in the log is one number, its batch's seq × LOG_BATCH_CAPACITY + its index.
 */
export const LOG_BATCH_SPAN_MS = 1000;
export const LOG_BATCH_CAPACITY = 128;

/** A log entry as read back: the columns of the `logs` view. */
export interface StoredLogEntry {
  id: string;
  method: string;
  path: string;
  endpoint: string;
  status_code: number;
  response_time_ms: number;
  error: string | null;
  created_at: number;
  cost: number;
  balance: number;
  delivery_id: string | null;
  /** The reason an operator gave (manage rows of the operator API only). */
  note: string | null;
  /** The entry's place in the log (batch seq × LOG_BATCH_CAPACITY + index): breaks ties on time when paging. */
  seq: number;
}

/** An entry as stored in a batch's JSON array, in this order (the `logs` view reads the same indexes). */
type EncodedEntry = [
  id: string,
  method: string,
  path: string,
  statusCode: number,
  responseTimeMs: number,
  error: string | null,
  createdAt: number,
  cost: number,
  balance: number,
  deliveryId: string | null,
  note: string | null,
];

/** The batch table's columns, in the order encodeLogBatches gives their values. */
export const LOG_BATCH_COLUMNS = ['wallet_id', 'endpoint', 'first_at', 'last_at', 'entry_count', 'entries'] as const;

interface OpenBatch {
  readonly walletId: number;
  readonly endpoint: string;
  readonly firstAt: number;
  lastAt: number;
  readonly entries: EncodedEntry[];
}

const encode = (r: LogRecord): EncodedEntry => [
  r.id,
  r.method,
  r.path,
  r.statusCode,
  r.responseTimeMs,
  r.error ?? null,
  r.createdAt,
  r.cost,
  r.balance,
  r.deliveryId ?? null,
  r.note ?? null,
];

/**
 * The stored rows of a batch of records (in order of writing), flat in LOG_BATCH_COLUMNS order: one per wallet and
 * category, a new one whenever the current one would pass its span or capacity or its times would go back (a clock set back).
 */
export function encodeLogBatches(records: readonly LogRecord[]): unknown[] {
  const open = new Map<string, OpenBatch>();
  const batches: OpenBatch[] = [];
  for (const record of records) {
    const key = `${record.walletId} ${record.endpoint}`;
    let batch = open.get(key);
    if (
      batch === undefined ||
      record.createdAt < batch.lastAt ||
      record.createdAt - batch.firstAt > LOG_BATCH_SPAN_MS ||
      batch.entries.length === LOG_BATCH_CAPACITY
    ) {
      batch = {
        walletId: record.walletId,
        endpoint: record.endpoint,
        firstAt: record.createdAt,
        lastAt: record.createdAt,
        entries: [],
      };
      open.set(key, batch);
      batches.push(batch);
    }
    batch.lastAt = record.createdAt;
    batch.entries.push(encode(record));
  }
  const values = new Array<unknown>(batches.length * LOG_BATCH_COLUMNS.length);
  let i = 0;
  for (const batch of batches) {
    values[i++] = batch.walletId;
    values[i++] = batch.endpoint;
    values[i++] = batch.firstAt;
    values[i++] = batch.lastAt;
    values[i++] = batch.entries.length;
    values[i++] = JSON.stringify(batch.entries);
  }
  return values;
}

/** The entries of one stored batch, each with its place in the log. */
export function decodeLogBatch(seq: number, endpoint: string, entriesText: string): StoredLogEntry[] {
  const entries = JSON.parse(entriesText) as EncodedEntry[];
  const first = seq * LOG_BATCH_CAPACITY;
  return entries.map((e, index) => ({
    id: e[0],
    method: e[1],
    path: e[2],
    endpoint,
    status_code: e[3],
    response_time_ms: e[4],
    error: e[5],
    created_at: e[6],
    cost: e[7],
    balance: e[8],
    delivery_id: e[9],
    note: e[10],
    seq: first + index,
  }));
}
