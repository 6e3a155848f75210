import type { Store } from '../../src/store/store.js';

/**
 * Inserts `count` rows into `table` in one statement, fast enough for tables of a million rows: `select` lists the
 * values of `columns` as SQL expressions of `i`, the row's number from 0 (a recursive count on SQLite,
 * generate_series on PostgreSQL). Table, columns and expressions are the caller's own text, never user input.
 */
export async function insertNumberedRows(store: Store, table: string, columns: string, count: number, select: string): Promise<void> {
  const numbers =
    store.dialect === 'sqlite'
      ? `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${count}) SELECT ${select} FROM n`
      : `SELECT ${select} FROM generate_series(0, ${count - 1}) AS n(i)`;
  await store.write(async (tx) => void (await tx.run(`INSERT INTO ${table} (${columns}) ${numbers}`)));
  // PostgreSQL plans from statistics: what autovacuum would have gathered by the time a table is this large.
  if (store.dialect === 'postgres') await store.write(async (tx) => void (await tx.run(`ANALYZE ${table}`)));
}
