import type { Sql, Unit } from './store.js';
import { POSTGRES_SYNC_LATER } from './postgres/sync-later.js';

/**
 * Rows appended to one table in bulk (the call log's batches). Values come flat, row after row in
 * `columns` order, so the caller builds no array per row. Each engine takes them its fastest way:
 * SQLite as multi-row INSERTs of up to SQLITE_ROWS rows (one statement text per size, prepared once),
 * PostgreSQL as one INSERT … SELECT FROM unnest over a column array each (`types` names their types).
 */
export interface BulkInsert {
  readonly table: string;
  readonly columns: readonly string[];
  /** PostgreSQL array types of the columns, e.g. `text[]`, `bigint[]`. */
  readonly types: readonly string[];
  /**
   * PostgreSQL: statements that add what the batch implies (totals), each an `INSERT … SELECT … FROM batch`, where
   * `batch` holds the rows being inserted under the insert's column names. They run in the insert's own statement as
   * data-modifying CTEs: one round trip and one implicit transaction, so the rows and what they imply commit together
   * and no row lock is held across round trips. SQLite runs the caller's `alongside` unit instead.
   */
  readonly postgresAlso?: readonly string[];
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
    const tuples = Array.from({ length: rows }, (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`);
    text = `INSERT INTO ${insert.table} (${insert.columns.join(', ')}) VALUES ${tuples.join(', ')}`;
    texts[rows] = text;
  }
  return text;
}

/** SQLite: inside one unit, chunks of up to SQLITE_ROWS rows. */
export async function insertRowsSqlite(tx: Unit, insert: BulkInsert, values: readonly unknown[]): Promise<void> {
  const width = insert.columns.length;
  const rows = values.length / width;
  for (let start = 0; start < rows; start += SQLITE_ROWS) {
    const end = Math.min(rows, start + SQLITE_ROWS);
    await tx.run(sqliteText(insert, end - start), values.slice(start * width, end * width));
  }
}

/** Statement texts per insert: [0] waits for the WAL flush at commit, [1] does not (`syncLater`). */
const postgresTexts = new WeakMap<BulkInsert, [string, string]>();

function postgresText(insert: BulkInsert, syncLater: boolean): string {
  let texts = postgresTexts.get(insert);
  if (texts === undefined) {
    const arrays = insert.types.map((type, c) => `$${c + 1}::${type}`).join(', ');
    const names = insert.columns.join(', ');
    const statement = (last: string): string =>
      [
        `WITH batch (${names}) AS (SELECT * FROM unnest(${arrays}))`,
        `, inserted AS (INSERT INTO ${insert.table} (${names}) SELECT * FROM batch)`,
        ...(insert.postgresAlso ?? []).map((also, i) => `, also${i} AS (${also})`),
        last,
      ].join('\n');
    const plain = insert.postgresAlso === undefined ? `INSERT INTO ${insert.table} (${names}) SELECT * FROM unnest(${arrays})` : statement('SELECT 1');
    // The data-modifying CTEs run whatever the last SELECT is; that SELECT sets the commit's mode, as syncLaterUpdate's FROM does.
    texts = [plain, statement(`SELECT ${POSTGRES_SYNC_LATER}`)];
    postgresTexts.set(insert, texts);
  }
  return texts[syncLater ? 1 : 0];
}

/** PostgreSQL: one statement for the whole batch; `syncLater`: its commit does not wait for the WAL flush. */
export async function insertRowsPostgres(sql: Sql, insert: BulkInsert, values: readonly unknown[], syncLater = false): Promise<void> {
  const width = insert.columns.length;
  const columns: unknown[][] = Array.from({ length: width }, () => []);
  for (let i = 0; i < values.length; i += 1) columns[i % width]?.push(values[i]);
  await sql.run(postgresText(insert, syncLater), columns);
}
