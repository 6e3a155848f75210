import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import type { StoreMetrics } from '../observability/metrics.js';
import type { TightenedFile } from './sqlite/private-files.js';

/** `sqlite:/path/file.db` or `postgres://…` (see DATABASE_URL in docs/operations.md#settings). */
export function openStore(
  databaseUrl: string,
  options: {
    sqliteSynchronous?: 'FULL' | 'NORMAL';
    readChargeSyncMs?: number;
    /** PostgreSQL: connections kept open (DATABASE_POOL_SIZE). */
    poolSize?: number;
    metrics?: StoreMetrics;
    onWideFile?: (file: TightenedFile) => void;
  } = {},
): Store {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteStore(databaseUrl.slice('sqlite:'.length), {
      synchronous: options.sqliteSynchronous,
      lateSyncMs: options.readChargeSyncMs,
      metrics: options.metrics,
      onWideFile: options.onWideFile,
    });
  return openPostgresStore(databaseUrl, { poolSize: options.poolSize, metrics: options.metrics });
}
