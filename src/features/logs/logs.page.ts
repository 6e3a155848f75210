import type { Store } from '../../store/store.js';
import type { MergeWalks } from '../../store/intentions.js';
import { LOG_CATEGORIES } from '../../ledger/log-entry.js';
import type { LogCategory } from '../../ledger/log-entry.js';
import { decodeLogBatch, LOG_BATCH_CAPACITY, LOG_BATCH_SPAN_MS } from '../../ledger/log-batches.js';
import type { LogRow } from './logs.queries.js';
import type { LogPosition } from './logs.cursor.js';

/**
 * Paging through a wallet's log (beyond the contract, docs/reference.md#call-logs: GET /token/logs with `cursor`,
 * `status`, `path`). The log is stored as batches (src/ledger/log-batches.ts) found by (wallet, category, newest
 * entry's time, seq): a page walks the batches that can hold entries older than its cursor, newest first, one
 * index range per category (one when `type` is given) merged as they go, and reads chunks of them until the entries
 * it has are settled: no batch left unread can hold a newer one. `status` and `path` are tested on the entries: a
 * filtered page looks at most SCAN_ROWS entries past the cursor, and when those hold fewer than n matches it
 * answers them with a cursor to go on from, so a rare match over millions of entries costs many short calls
 * instead of one long one.
 */
export const SCAN_ROWS = 5000;

/** Batches read by a page's first statement; each further one reads up to twice as many. */
const FIRST_CHUNK = 4;
/**
 * About the entries one statement's batches hold at most (by the batches read so far). Entries carry a path and an
 * error of up to 512 characters each: 2,048 of the largest are ~4 MB of JSON, a few ms to read and decode.
 */
const CHUNK_ENTRIES = 2048;

/** Status codes from `from` (inclusive) to `to` (exclusive): `4xx` is 400..500, `404` is 404..405. */
export interface StatusRange {
  readonly from: number;
  readonly to: number;
}

export interface PageRequest {
  readonly walletId: number;
  readonly n: number;
  /** Entries strictly older than this. */
  readonly before: LogPosition;
  /** Entries created after this (the retention cut). */
  readonly since: number;
  readonly category?: LogCategory;
  readonly status?: StatusRange;
  readonly pathPrefix?: string;
}

export interface LogPage {
  readonly rows: readonly LogRow[];
  /** Where the next page starts, or undefined when no entry is left. */
  readonly next: LogPosition | undefined;
}

/** What a page is read from: the store's reads, and how it merges index walks. */
export type LogSource = Pick<Store, 'read' | 'mergeWalks'>;

/** A batch's place in the walk: its newest entry's time, then its seq. */
interface BatchPlace {
  readonly lastAt: number;
  readonly seq: number;
}

interface BatchRow {
  seq: number | string;
  endpoint: string;
  last_at: number | string;
  entries: string;
}

/**
 * The statement of a chunk: batches of the request's categories older than `after` in the walk, newest first.
 * $1..$5: wallet, the retention cut, `after`, the chunk's size. Category names are our constants, never user input.
 */
export function chunkStatement(
  merge: MergeWalks,
  request: PageRequest,
  after: BatchPlace,
  limit: number,
): { readonly sql: string; readonly params: readonly unknown[] } {
  const params: unknown[] = [request.walletId, request.since, after.lastAt, after.seq, limit];
  const categories = request.category === undefined ? LOG_CATEGORIES : [request.category];
  const walks = categories.map((category) => {
    let endpoint = `'${category}'`;
    if (request.category !== undefined) {
      params.push(category);
      endpoint = `$${params.length}`;
    }
    return `SELECT seq, endpoint, last_at, entries FROM log_batches WHERE wallet_id = $1 AND endpoint = ${endpoint} AND last_at > $2 AND last_at <= $3 AND (last_at < $3 OR seq < $4)`;
  });
  return { sql: merge(walks, 'last_at DESC, seq DESC', { limit: '$5' }), params };
}

const newestFirst = (a: LogRow, b: LogRow): number => b.created_at - a.created_at || b.seq - a.seq;

/** Whether `entry` lies in the request's range: after the retention cut, strictly older than its cursor. */
function inRange(entry: LogRow, request: PageRequest): boolean {
  const { before } = request;
  return (
    entry.created_at > request.since &&
    (entry.created_at < before.createdAt || (entry.created_at === before.createdAt && entry.seq < before.seq))
  );
}

/** How many of `found` (newest first) no unread batch can precede: those newer than the last batch read, in its order. */
function settledCount(found: readonly LogRow[], last: BatchPlace): number {
  const lowest = last.seq * LOG_BATCH_CAPACITY;
  let count = 0;
  while (count < found.length) {
    const entry = found[count] as LogRow;
    if (entry.created_at < last.lastAt || (entry.created_at === last.lastAt && entry.seq < lowest)) break;
    count++;
  }
  return count;
}

/**
 * The request's range, newest first, from its start until `most` entries are settled (they always suffice), `enough`
 * says fewer do, or the log ends. A batch holds entries no newer than its last_at and no older than LOG_BATCH_SPAN_MS before it, so the walk
 * starts at the cursor's time plus that span, and every batch left after the last one read holds entries no newer
 * than that one's (ties: lower seq, written earlier). A chunk asks for no more batches than are likely to hold the
 * rest of `most`, by the entries a batch has held so far.
 */
async function walkRange(
  store: LogSource,
  request: PageRequest,
  most: number,
  enough?: (settled: readonly LogRow[]) => boolean,
): Promise<LogRow[]> {
  let after: BatchPlace = {
    lastAt: Math.min(request.before.createdAt + LOG_BATCH_SPAN_MS, Number.MAX_SAFE_INTEGER),
    seq: Number.MAX_SAFE_INTEGER,
  };
  const found: LogRow[] = [];
  let [batchesRead, entriesRead] = [0, 0];
  for (let chunk = FIRST_CHUNK; ;) {
    const statement = chunkStatement(store.mergeWalks, request, after, chunk);
    const batches = await store.read.all<BatchRow>(statement.sql, statement.params);
    for (const batch of batches) {
      const entries = decodeLogBatch(Number(batch.seq), batch.endpoint, batch.entries);
      entriesRead += entries.length;
      for (const entry of entries) if (inRange(entry, request)) found.push(entry);
    }
    found.sort(newestFirst);
    if (batches.length < chunk) return found;
    const last = batches[batches.length - 1] as BatchRow;
    after = { lastAt: Number(last.last_at), seq: Number(last.seq) };
    const settled = found.slice(0, settledCount(found, after));
    if (settled.length >= most || enough?.(settled) === true) return settled;
    batchesRead += batches.length;
    // One batch more than the rest is likely to need, so that the one holding the last entry wanted is read too.
    const likelyNeeded = Math.ceil(((most - settled.length) * batchesRead) / entriesRead) + 1;
    chunk = Math.max(
      FIRST_CHUNK,
      Math.min(2 * chunk, Math.floor((CHUNK_ENTRIES * batchesRead) / entriesRead), likelyNeeded),
    );
  }
}

function matches(entry: LogRow, request: PageRequest): boolean {
  const { status, pathPrefix } = request;
  if (status !== undefined && (entry.status_code < status.from || entry.status_code >= status.to)) return false;
  return pathPrefix === undefined || entry.path.startsWith(pathPrefix);
}

/** The first `limit` entries of `entries` that match the request's filters. */
function firstMatches(entries: readonly LogRow[], request: PageRequest, limit: number): LogRow[] {
  const out: LogRow[] = [];
  for (const entry of entries) {
    if (out.length === limit) break;
    if (matches(entry, request)) out.push(entry);
  }
  return out;
}

const positionOf = (entry: LogRow): LogPosition => ({ createdAt: entry.created_at, seq: entry.seq });

export async function logPage(store: LogSource, request: PageRequest): Promise<LogPage> {
  const { n } = request;
  const filtered = request.status !== undefined || request.pathPrefix !== undefined;
  // Unfiltered, every entry of the range matches: n + 1 entries are all the work. Filtered, the scan is bounded.
  const scanned = await walkRange(
    store,
    request,
    filtered ? SCAN_ROWS + 1 : n + 1,
    filtered ? (settled) => firstMatches(settled, request, n + 1).length > n : undefined,
  );
  const end = filtered && scanned.length > SCAN_ROWS ? (scanned[SCAN_ROWS] as LogRow) : undefined;
  const inScan = end === undefined ? scanned : scanned.slice(0, SCAN_ROWS);
  const rows = filtered ? firstMatches(inScan, request, n + 1) : inScan.slice(0, n + 1);
  if (rows.length > n) {
    rows.length = n;
    return { rows, next: positionOf(rows[n - 1] as LogRow) };
  }
  // The scan ended before n matches: go on from the first entry it did not look at (inclusive: seq + 1).
  return { rows, next: end === undefined ? undefined : { createdAt: end.created_at, seq: end.seq + 1 } };
}
