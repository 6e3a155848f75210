import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { migrations } from '../../../src/store/migrations/migrations.js';
import { applySqliteMigrations } from '../../../src/store/sqlite/sqlite-migrate.js';
import { applyPostgresMigrations } from '../../../src/store/postgres/postgres-migrate.js';
import { openStore } from '../../../src/store/open-store.js';
import type { Store } from '../../../src/store/store.js';
import { getValue } from '../../../src/features/kv/kv.queries.js';

const INSERT_LOG =
  'INSERT INTO logs (id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance) VALUES ($1, 1, $2, $3, $4, 200, 3, NULL, $5, 1, 99)';

describeEachStore('upgrading an existing database', (kind) => {
  let database: ScratchDatabase;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await database.drop();
  });

  /** Builds the schema as it was before migration `id` and runs `statements` on it. */
  async function schemaBefore(id: number, statements: Array<[string, unknown[]]>): Promise<void> {
    const older = migrations.filter((migration) => migration.id < id);
    if (kind === 'sqlite') {
      const db = new Database(database.url.slice('sqlite:'.length));
      applySqliteMigrations(db, older);
      for (const [sql, params] of statements) db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
      db.close();
      return;
    }
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await applyPostgresMigrations(pool, older);
    for (const [sql, params] of statements) await pool.query(sql, params);
    await pool.end();
  }

  it('keeps every log row, in order, when the unique index on log ids goes (migration 7)', async () => {
    database = await scratchDatabase(kind);
    await schemaBefore(7, [
      [INSERT_LOG, ['first', 'GET', '/kv/a/b', 'kv', 1000]],
      [INSERT_LOG, ['second', 'POST', '/kv/a/b', 'kv', 2000]],
    ]);
    store = openStore(database.url);
    await store.migrate();
    await store.writeOne(INSERT_LOG, ['third', 'GET', '/token', 'token', 3000]);
    // Ids are random and never looked up: the schema no longer spends an index on them.
    await store.writeOne(INSERT_LOG, ['third', 'GET', '/token', 'token', 4000]);
    const rows = await store.read.all<{ id: string; path: string; created_at: number }>('SELECT id, path, created_at FROM logs ORDER BY seq');
    expect(rows).toEqual([
      { id: 'first', path: '/kv/a/b', created_at: 1000 },
      { id: 'second', path: '/kv/a/b', created_at: 2000 },
      { id: 'third', path: '/token', created_at: 3000 },
      { id: 'third', path: '/token', created_at: 4000 },
    ]);
  });

  it('keeps every stored value, non-ASCII included, when PostgreSQL values become bytes (migration 8)', async () => {
    database = await scratchDatabase(kind);
    const value = 'héllo 😀 \\ "quoted"';
    await schemaBefore(8, [['INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES (1, $1, $2, $3, $4)', ['b', 'k', value, 9e12]]]);
    store = openStore(database.url);
    await store.migrate();
    expect(await getValue(store.read, 1, 'b', 'k', 0)).toBe(value);
  });
});
