import type pg from 'pg';
import type { Migration } from '../migrations/migrations.js';
import { withPooledClient } from './pooled-client.js';

/** Arbitrary constant: the advisory lock that serialises migrations of instances booting together. */
const MIGRATION_LOCK = 7_310_421;
/** How long the client waits for one migration statement (the server's own bound is lifted for them). */
const MIGRATION_READ_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * Applies missing migrations of `list` (all of them; tests pass a prefix to build an older schema). The statements
 * around them (the transaction, the bookkeeping) are bounded by `readTimeoutMs` on the client, as the store's are.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  list: readonly Migration[],
  readTimeoutMs: number,
): Promise<void> {
  await withPooledClient(pool, async (client) => {
    const quick = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
      client.query<R>({ text, values, query_timeout: readTimeoutMs } as pg.QueryConfig);
    try {
      await migrateWith(client, list, quick);
    } catch (error) {
      await quick('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

type Statement = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

async function migrateWith(client: pg.PoolClient, list: readonly Migration[], quick: Statement): Promise<void> {
  // A migration may rewrite a large table, or wait for another instance's: the store's statement bounds
  // are for requests, not for this.
  const slow = (text: string, values?: unknown[]) =>
    client.query({ text, values, query_timeout: MIGRATION_READ_TIMEOUT_MS } as pg.QueryConfig);
  await quick('BEGIN');
  await quick('SET LOCAL statement_timeout = 0');
  await slow('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await quick(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const { rows } = await quick<{ id: number }>('SELECT id FROM schema_migrations');
  const applied = new Set(rows.map((row) => Number(row.id)));
  for (const migration of list) {
    if (applied.has(migration.id)) continue;
    await slow(migration.postgres);
    await quick('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)', [
      migration.id,
      migration.name,
      Date.now(),
    ]);
  }
  await quick('COMMIT');
}
