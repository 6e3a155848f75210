// SQLite only: the reader connection's shared read transaction (src/store/sqlite/read-snapshot.ts) is SQLite's
// engine mechanism; PostgreSQL reads are each their own statement on the server.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { SqliteOptions } from '../../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../../src/store/store.js';

const INSERT_SECRET = 'INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, $3)';
const SECRET_VALUE = 'SELECT value FROM service_secrets WHERE name = $1';
const UPDATE_SECRET = 'UPDATE service_secrets SET value = $2 WHERE name = $1';

describe('SQLite reads share a read transaction per event-loop turn', () => {
  let dir: string;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(options: SqliteOptions = {}): Promise<Store> {
    dir = mkdtempSync(join(tmpdir(), 'coinop-read-snapshot-'));
    store = openSqliteStore(join(dir, 'coinop.db'), options);
    await store.migrate();
    return store;
  }

  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    it(`a read after a commit sees it, though an earlier read of the same turn began the snapshot (SQLITE_SYNCHRONOUS=${synchronous})`, async () => {
      const sqlite = await open({ synchronous });
      await sqlite.writeOne(INSERT_SECRET, ['colour', 'red', 0]);
      // The write opens this turn's group (its COMMIT is queued first), then a read begins this turn's snapshot…
      const { durable } = await sqlite.writeDeferred(UPDATE_SECRET, ['colour', 'blue'], { syncLater: true });
      expect(await sqlite.read.get(SECRET_VALUE, ['colour'])).toEqual({ value: 'red' });
      // …and once the write is committed (still within that turn's end), a read must see it.
      await durable;
      expect(await sqlite.read.get(SECRET_VALUE, ['colour'])).toEqual({ value: 'blue' });
    });
  }

  it('ends with the turn: once the reads are over, no snapshot holds the WAL (a checkpoint can truncate it)', async () => {
    const sqlite = await open();
    await sqlite.writeOne(INSERT_SECRET, ['colour', 'red', 0]);
    expect(await sqlite.read.get(SECRET_VALUE, ['colour'])).toEqual({ value: 'red' });
    await new Promise((resolve) => setImmediate(resolve));
    const other = new Database(join(dir, 'coinop.db'));
    try {
      // busy 0: every frame copied and the WAL truncated, which a reader's open snapshot would prevent.
      expect(other.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    } finally {
      other.close();
    }
  });
});
