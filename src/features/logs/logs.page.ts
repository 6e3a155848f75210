import type { Store } from '../../store/store.js';
import type { MergeWalks, MergeWindow } from '../../store/intentions.js';
import { LOG_CATEGORIES } from '../../ledger/log-entry.js';
import type { LogCategory } from '../../ledger/log-entry.js';
import { LOG_COLUMNS } from '../../ledger/log-insert.js';
import type { LogRow } from './logs.queries.js';
import type { LogPosition } from './logs.cursor.js';

/**
 * Paging through a wallet's log (beyond the contract, docs/reference.md#call-logs: GET /token/logs with `cursor`, `status`, `path`). Logs have one
 * index, (wallet, category, time), so a page is read as one index range per category (one when `type` is given),
 * merged newest first. `status` and `path` are not indexed: a filtered page looks at most SCAN_ROWS entries
 * past the cursor, and when those hold fewer than n matches it answers them with a cursor to go on from, so
 * a rare match over millions of rows costs many short calls instead of one long one. A filtered call reads
 * about 2 × SCAN_ROWS index entries whatever the log holds: SCAN_ROWS + 1 positions to find where its scan ends
 * (and one a category ahead, the merge's), then the rows between the cursor and that end, its page's range.
 */
export const SCAN_ROWS = 5000;

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

/** What an entry shows, and its place (seq) for the cursor. */
const ROW_COLUMNS = `${LOG_COLUMNS}, note, seq`;

/** Builds one statement's text and parameters; $1..$4 are fixed: wallet, since, and the `before` position. */
class Statement {
  readonly params: unknown[];

  constructor(request: PageRequest) {
    this.params = [request.walletId, request.since, request.before.createdAt, request.before.seq];
  }

  /** A parameter reference for `value`. */
  ref(value: unknown): `$${number}` {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** The conditions that select one category's part of the request's range. Category names are our constants, never user input. */
function rangeConditions(statement: Statement, request: PageRequest, category: string): string {
  const endpoint = request.category === undefined ? `'${category}'` : statement.ref(category);
  return `wallet_id = $1 AND endpoint = ${endpoint} AND created_at > $2 AND created_at <= $3 AND (created_at < $3 OR seq < $4)`;
}

/** The categories a request reads: its `type`, or every one. */
const categoriesOf = (request: PageRequest): readonly string[] =>
  request.category === undefined ? LOG_CATEGORIES : [request.category];

/** The newest first order of a range; the index's own, so walks in it are merged as they go (Store.mergeWalks). */
const NEWEST_FIRST = 'created_at DESC, seq DESC';

/** What a range statement selects: `columns`, under `conditions` appended to the range's own, within `window`. */
interface RangeSelect {
  readonly columns: string;
  readonly conditions: string;
  readonly window: MergeWindow;
}

/** Newest first from the request's range, as `select` says: one index range per category, merged as they go. */
function rangeText(
  merge: MergeWalks,
  statement: Statement,
  request: PageRequest,
  { columns, conditions, window }: RangeSelect,
): string {
  const walks = categoriesOf(request).map(
    (category) => `SELECT ${columns} FROM logs WHERE ${rangeConditions(statement, request, category)}${conditions}`,
  );
  return merge(walks, NEWEST_FIRST, window);
}

/** The SQL conditions of the filters that have no index. */
function filterText(statement: Statement, request: PageRequest): string {
  let text = '';
  if (request.status !== undefined)
    text += ` AND status_code >= ${statement.ref(request.status.from)} AND status_code < ${statement.ref(request.status.to)}`;
  // Both engines count substr in characters (code points), as the prefix's length is given here.
  if (request.pathPrefix !== undefined)
    text += ` AND substr(path, 1, ${statement.ref([...request.pathPrefix].length)}) = ${statement.ref(request.pathPrefix)}`;
  return text;
}

/**
 * The first entry past the scan (the SCAN_ROWS + 1st of the range), or undefined when the range holds no more
 * than SCAN_ROWS. Reads positions only (SQLite answers from the index, whose entries end with the rowid, seq), and
 * about SCAN_ROWS of them: the categories' index walks are merged as they go (each walk sorted on its own first
 * made SQLite read SCAN_ROWS + 1 positions of every category).
 */
async function scanEnd(store: LogSource, request: PageRequest): Promise<LogPosition | undefined> {
  const statement = new Statement(request);
  const text = rangeText(store.mergeWalks, statement, request, {
    columns: 'created_at, seq',
    conditions: '',
    window: { limit: 1, offset: SCAN_ROWS },
  });
  const row = await store.read.get<{ created_at: number; seq: number }>(text, statement.params);
  return row === undefined ? undefined : { createdAt: row.created_at, seq: row.seq };
}

/**
 * The statement of a page: the request's range newer than `end` (the scan's end, when filtered), n + 1 rows at most.
 * The scan's end replaces the retention cut as the range's one lower bound on time (it lies within the range, and times
 * are whole milliseconds): given two lower bounds on one column, SQLite bounds its index walk by one of them only and
 * tests the other on each entry, so a page that found fewer than n matches walked on to the retention cut (a week of
 * entries) instead of stopping at the scan's end.
 */
export function pageStatement(
  merge: MergeWalks,
  request: PageRequest,
  end?: LogPosition,
): { readonly sql: string; readonly params: readonly unknown[] } {
  const statement = new Statement(end === undefined ? request : { ...request, since: end.createdAt - 1 });
  let conditions = filterText(statement, request);
  // Entries of the end's millisecond are newer than the end only from its seq on.
  if (end !== undefined)
    conditions += ` AND (created_at > ${statement.ref(end.createdAt)} OR seq > ${statement.ref(end.seq)})`;
  const limit = statement.ref(request.n + 1);
  return {
    sql: rangeText(merge, statement, request, { columns: ROW_COLUMNS, conditions, window: { limit } }),
    params: statement.params,
  };
}

/** What a page is read from: the store's reads, and how it merges index walks. */
export type LogSource = Pick<Store, 'read' | 'mergeWalks'>;

export async function logPage(store: LogSource, request: PageRequest): Promise<LogPage> {
  const filtered = request.status !== undefined || request.pathPrefix !== undefined;
  // Unfiltered, every row of the range matches: n + 1 rows are all the work. Filtered, the scan is bounded.
  const end = filtered ? await scanEnd(store, request) : undefined;
  const page = pageStatement(store.mergeWalks, request, end);
  const rows = await store.read.all<LogRow>(page.sql, page.params);
  if (rows.length > request.n) {
    rows.length = request.n;
    const last = rows[request.n - 1] as LogRow;
    return { rows, next: { createdAt: last.created_at, seq: last.seq } };
  }
  // The scan ended before n matches: go on from the first entry it did not look at (inclusive: seq + 1).
  return { rows, next: end === undefined ? undefined : { createdAt: end.createdAt, seq: end.seq + 1 } };
}
