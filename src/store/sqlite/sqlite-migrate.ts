import type Database from 'better-sqlite3';
import { migrations } from '../migrations/migrations.js';
import type { Migration } from '../migrations/migrations.js';

/** Applies missing migrations of `list` (default: all), each in its own transaction. SQLite has one writer, so no lock dance. */
export function applySqliteMigrations(db: Database.Database, list: readonly Migration[] = migrations): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT id FROM schema_migrations').all() as Array<{ id: number }>).map((row) => row.id),
  );
  for (const migration of list) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      db.exec(migration.sqlite);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
        migration.id,
        migration.name,
        Date.now(),
      );
    }).immediate();
  }
}
