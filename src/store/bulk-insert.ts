import type { ColumnForm, ColumnType, InsertOptions, ManyStatement, Sql, Unit } from './store.js';
import { POSTGRES_SYNC_LATER } from './postgres/sync-later.js';
import { arrayLiterals, unnestRows } from './postgres/column-arrays.js';

/** A statement of rows a batch implies (its totals), for every engine: one row at a time, or all rows as columns. */
export type AlsoStatement = ManyStatement & { readonly columns: ColumnForm };

/**
 * Rows appended to one table in bulk (the call log's batches). Values come flat, row after row in
 * `columns` order, so the caller builds no array per row. Each engine takes them its fastest way:
 * SQLite as multi-row INSERTs of up to SQLITE_ROWS rows (one statement text per size, prepared once),
 * PostgreSQL as one INSERT … SELECT over a column array each (`types` names their types).
 */
export interface BulkInsert {
  readonly table: string;
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
  /**
   * Statements of rows the batch implies (totals the caller adds up from it), written in the same atomic write as the
   * batch, each given its rows in InsertOptions.alsoRows (same order). PostgreSQL runs them in the insert's own statement
   * as data-modifying CTEs: one round trip and one implicit transaction, so no row lock is held across round trips;
   * SQLite runs each after the insert in the insert's unit.
   */
  readonly also?: readonly AlsoStatement[];
}

const SQLITE_ROWS = 50;

/** Statement texts per insert and row count, made once. */
const sqliteTexts = new WeakMap<BulkInsert, string[]>();

function sqliteText(insert: BulkInsert, rows: number): string {
  let texts = sqliteTexts.get(insert);
  if (texts === undefined) {
    texts = [];
    sqliteTexts.set(insert, texts);
  }
  let text = texts[rows];
  if (text === undefined) {
    const width = insert.columns.length;
    const tuples = Array.from(
      { length: rows },
      (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
    );
    text = `INSERT INTO ${insert.table} (${insert.columns.join(', ')}) VALUES ${tuples.join(', ')}`;
    texts[rows] = text;
  }
  return text;
}

type Rows = readonly (readonly unknown[])[];

/** SQLite: inside one unit, chunks of up to SQLITE_ROWS rows, then each `also` statement over its rows. */
export async function insertRowsSqlite(
  tx: Unit,
  insert: BulkInsert,
  values: readonly unknown[],
  alsoRows: readonly Rows[] = [],
): Promise<void> {
  const width = insert.columns.length;
  const rows = values.length / width;
  for (let start = 0; start < rows; start += SQLITE_ROWS) {
    const end = Math.min(rows, start + SQLITE_ROWS);
    await tx.run(sqliteText(insert, end - start), values.slice(start * width, end * width));
  }
  const also = insert.also ?? [];
  for (let i = 0; i < also.length; i++) {
    const statement = also[i] as AlsoStatement;
    const implied = alsoRows[i] ?? [];
    if (implied.length > 0) await tx.executeMany(statement, implied);
  }
}

/** Statement texts per insert: [0] waits for the WAL flush at commit, [1] does not (`syncLater`). */
const postgresTexts = new WeakMap<BulkInsert, [string, string]>();

function postgresText(insert: BulkInsert, syncLater: boolean): string {
  let texts = postgresTexts.get(insert);
  if (texts === undefined) {
    const names = insert.columns.join(', ');
    const insertAll = `INSERT INTO ${insert.table} (${names}) SELECT * FROM ${unnestRows(insert.types)}`;
    // Each `also` statement's columns are bound after the insert's and the earlier statements'.
    let next = insert.types.length + 1;
    const alsos = (insert.also ?? []).map((also, i) => {
      const text = `, also${i} AS (${also.columns.sql(unnestRows(also.columns.types, next))})`;
      next += also.columns.types.length;
      return text;
    });
    const statement = (last: string): string => [`WITH inserted AS (${insertAll})`, ...alsos, last].join('\n');
    const plain = insert.also === undefined ? insertAll : statement('SELECT 1');
    // The data-modifying CTEs run whatever the last SELECT is; that SELECT sets the commit's mode, as syncLaterUpdate's FROM does.
    texts = [plain, statement(`SELECT ${POSTGRES_SYNC_LATER}`)];
    postgresTexts.set(insert, texts);
  }
  return texts[syncLater ? 1 : 0];
}

/** The types of every column array a batch binds, the insert's then each `also` statement's, in order; made once per insert. */
const boundTypeLists = new WeakMap<BulkInsert, readonly ColumnType[]>();

function boundTypes(insert: BulkInsert): readonly ColumnType[] {
  let types = boundTypeLists.get(insert);
  if (types === undefined) {
    types = [...insert.types, ...(insert.also ?? []).flatMap((also) => also.columns.types)];
    boundTypeLists.set(insert, types);
  }
  return types;
}

/** Each row's kth value appended to `columns[offset + k]`. */
function appendColumns(columns: unknown[][], offset: number, width: number, rows: Rows): void {
  for (let c = 0; c < width; c++) columns[offset + c] = rows.map((row) => row[c]);
}

/** PostgreSQL: one statement for the whole batch and what it implies; `syncLater`: its commit does not wait for the WAL flush. */
export async function insertRowsPostgres(
  sql: Sql,
  insert: BulkInsert,
  values: readonly unknown[],
  options: InsertOptions = {},
): Promise<void> {
  const { alsoRows = [], syncLater = false } = options;
  const width = insert.columns.length;
  const columns: unknown[][] = Array.from({ length: width }, () => []);
  for (let i = 0; i < values.length; i += 1) columns[i % width]?.push(values[i]);
  let offset = width;
  (insert.also ?? []).forEach((also, i) => {
    appendColumns(columns, offset, also.columns.types.length, alsoRows[i] ?? []);
    offset += also.columns.types.length;
  });
  await sql.run(postgresText(insert, syncLater), arrayLiterals(columns, boundTypes(insert)));
}
