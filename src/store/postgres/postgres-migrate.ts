import type pg from 'pg';
import { migrations } from '../migrations/migrations.js';
import type { Migration } from '../migrations/migrations.js';

/** Arbitrary constant: the advisory lock that serialises migrations of instances booting together. */
const MIGRATION_LOCK = 7_310_421;

/** Applies missing migrations of `list` (all of them; tests pass a prefix to build an older schema). */
export async function applyPostgresMigrations(pool: pg.Pool, list: readonly Migration[] = migrations): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    const { rows } = await client.query<{ id: number }>('SELECT id FROM schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.id)));
    for (const migration of list) {
      if (applied.has(migration.id)) continue;
      await client.query(migration.postgres);
      await client.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)', [migration.id, migration.name, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
