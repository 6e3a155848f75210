/**
 * For upgrade tests: a scratch database built with the schema as it was before a migration and filled with
 * rows of that time, then opened and migrated the rest of the way, as a deployment upgrades:
 *
 *   const upgrade = useUpgrade(kind);                          // at describe level
 *   const store = await upgrade.from(9, [[INSERT, params]]);   // migrated; closed and dropped after the test
 */
import { afterEach } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { scratchDatabase } from './stores.js';
import type { ScratchDatabase, StoreKind } from './stores.js';
import { migrations } from '../../src/store/migrations/migrations.js';
import { applySqliteMigrations } from '../../src/store/sqlite/sqlite-migrate.js';
import { applyPostgresMigrations } from '../../src/store/postgres/postgres-migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';

/** A statement in PostgreSQL's placeholders (`$1`), with its parameters. */
export type OldRow = readonly [sql: string, params: readonly unknown[]];

export function useUpgrade(kind: StoreKind): { from(id: number, rows?: readonly OldRow[]): Promise<Store> } {
  let database: ScratchDatabase | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await database?.drop();
    database = undefined;
  });

  /** The schema as it was before migration `id`, with `rows` written in it. */
  async function schemaBefore(url: string, id: number, rows: readonly OldRow[]): Promise<void> {
    const older = migrations.filter((migration) => migration.id < id);
    if (kind === 'sqlite') {
      const db = new Database(url.slice('sqlite:'.length));
      applySqliteMigrations(db, older);
      for (const [sql, params] of rows) db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
      db.close();
      return;
    }
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await applyPostgresMigrations(pool, older, 60_000);
    for (const [sql, params] of rows) await pool.query(sql, [...params]);
    await pool.end();
  }

  return {
    async from(id, rows = []) {
      database = await scratchDatabase(kind);
      await schemaBefore(database.url, id, rows);
      store = openStore(database.url);
      await store.migrate();
      return store;
    },
  };
}
