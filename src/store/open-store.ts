import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import { openPostgresStore } from './postgres/postgres-store.js';

/** `sqlite:/path/file.db` or `postgres://…` (see DATABASE_URL in the README). */
export function openStore(databaseUrl: string, options: { sqliteSynchronous?: 'FULL' | 'NORMAL' } = {}): Store {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length), { synchronous: options.sqliteSynchronous });
  return openPostgresStore(databaseUrl);
}
