import type { ManyStatement, RowLocks, Sql } from './store.js';

/** SQLite: its one writer runs units one at a time, so nothing needs locking. */
export const NO_LOCKS: RowLocks = { forUpdate: '', skipLocked: () => '' };

export const POSTGRES_LOCKS: RowLocks = {
  forUpdate: ' FOR UPDATE',
  skipLocked: (of) => (of === undefined ? ' FOR UPDATE SKIP LOCKED' : ` FOR UPDATE OF ${of} SKIP LOCKED`),
};

/**
 * One statement that merges index walks (SELECTs whose index yields their rows in `order`) in that order as it goes,
 * so that `limit` rows after `offset` cost about that many rows read, whatever each walk holds (Store.mergeWalks).
 * `limit` and `offset` are the code's own numbers, or `limit` alone is a reference to a bound parameter (`$5`) when
 * it is the caller's, so that the statement's text stays the same whatever the caller asks (one prepared statement).
 */
export type MergeWalks = (walks: readonly string[], order: string, window: MergeWindow) => string;

export type MergeWindow =
  { readonly limit: number; readonly offset?: number } | { readonly limit: `$${number}`; readonly offset?: never };

const windowText = (window: MergeWindow): string =>
  `LIMIT ${window.limit}${window.offset === undefined ? '' : ` OFFSET ${window.offset}`}`;

/** The rows a walk may have to yield for the window: its limit and offset together. */
const walkLimit = (window: MergeWindow): string | number =>
  typeof window.limit === 'number' ? window.limit + (window.offset ?? 0) : window.limit;

/** SQLite merges a compound's ORDER BY over its arms as they go; an arm wrapped in a subquery of its own would be sorted first. */
export const SQLITE_MERGE_WALKS: MergeWalks = (walks, order, window) =>
  `${walks.join(' UNION ALL ')} ORDER BY ${order} ${windowText(window)}`;

/**
 * PostgreSQL plans a lazy Merge Append when each walk is ordered and limited; unlimited walks on a table without fresh
 * statistics (each estimated at a row) are planned as one sort of everything they hold.
 */
export const POSTGRES_MERGE_WALKS: MergeWalks = (walks, order, window) => {
  if (walks.length === 1) return `${walks[0] ?? ''} ORDER BY ${order} ${windowText(window)}`; // one walk is already in order
  return `${walks.map((walk) => `(${walk} ORDER BY ${order} LIMIT ${walkLimit(window)})`).join(' UNION ALL ')} ORDER BY ${order} ${windowText(window)}`;
};

/** `SELECT 1 FROM table WHERE col = $1 AND …` with the key's values; names are the code's own, values are bound. */
export function selectRow(
  table: string,
  key: Readonly<Record<string, string | number>>,
): { sql: string; params: unknown[] } {
  const columns = Object.keys(key);
  return {
    sql: `SELECT 1 FROM ${table} WHERE ${columns.map((column, i) => `${column} = $${i + 1}`).join(' AND ')}`,
    params: Object.values(key),
  };
}

/** `statement.sql` once per row, in order. */
export async function eachRow<T>(
  sql: Sql,
  statement: ManyStatement,
  rows: readonly (readonly unknown[])[],
): Promise<T[]> {
  const out: T[] = [];
  for (const row of rows) out.push(...(await sql.all<T>(statement.sql, row)));
  return out;
}

/** The rows turned into one array per column (what `ManyStatement.columns` binds). */
export function columnArrays(rows: readonly (readonly unknown[])[]): unknown[][] {
  const width = rows[0]?.length ?? 0;
  const columns: unknown[][] = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) (columns[c] as unknown[])[r] = row[c];
  });
  return columns;
}
