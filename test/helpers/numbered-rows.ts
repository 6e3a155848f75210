import type { Store } from '../../src/store/store.js';

/** Rows per statement: each well within the store's statement timeout on a busy host. */
const CHUNK = 50_000;

/**
 * Inserts `count` rows into `table`, fast enough for tables of a million rows: `select` lists the values of
 * `columns` as SQL expressions of `i`, the row's number from 0 (a recursive count on SQLite, generate_series on
 * PostgreSQL), in one transaction of CHUNK rows a statement. Table, columns and expressions are the caller's own
 * text, never user input.
 */
export async function insertNumberedRows(
  store: Store,
  table: string,
  columns: string,
  count: number,
  select: string,
): Promise<void> {
  await store.write(async (tx) => {
    for (let from = 0; from < count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK);
      const numbers =
        store.dialect === 'sqlite'
          ? `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to}) SELECT ${select} FROM n`
          : `SELECT ${select} FROM generate_series(${from}, ${to - 1}) AS n(i)`;
      await tx.run(`INSERT INTO ${table} (${columns}) ${numbers}`);
    }
  });
  // PostgreSQL plans from statistics: what autovacuum would have gathered by the time a table is this large.
  if (store.dialect === 'postgres') await store.write(async (tx) => void (await tx.run(`ANALYZE ${table}`)));
}
