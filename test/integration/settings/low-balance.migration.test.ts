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
import { claimNotification, pendingWallets } from '../../../src/ledger/low-balance.js';
import { HOUR, MINUTE } from '../../../src/lib/time.js';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const PENDING_WALLET =
  'INSERT INTO wallets (hash, balance, created_at, last_used_at, lb_threshold, lb_webhook, lb_armed, lb_pending) VALUES (\'h1\', 40, 0, 0, 50, \'{"url":"https://example.com/"}\', 0, 1)';

describeEachStore('upgrading to the low-balance rate limit (migration 9)', (kind) => {
  let database: ScratchDatabase;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await database.drop();
  });

  it('keeps an incident pending before the upgrade due at once, and the claim then starts its hour', async () => {
    database = await scratchDatabase(kind);
    const older = migrations.filter((migration) => migration.id < 9);
    if (kind === 'sqlite') {
      const db = new Database(database.url.slice('sqlite:'.length));
      applySqliteMigrations(db, older);
      db.prepare(PENDING_WALLET).run();
      db.close();
    } else {
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      await applyPostgresMigrations(pool, older);
      await pool.query(PENDING_WALLET);
      await pool.end();
    }
    store = openStore(database.url);
    await store.migrate();
    const [walletId] = await pendingWallets(store.read, NOW, HOUR, 10);
    expect(walletId).toBeDefined();
    const claim = await claimNotification(store, walletId as number, { now: NOW, leaseMs: MINUTE, minIntervalMs: HOUR });
    expect(claim).toMatchObject({ balance: 40, threshold: 50 });
    const row = await store.read.get<{ lb_last_sent_at: number }>('SELECT lb_last_sent_at FROM wallets WHERE id = $1', [walletId]);
    expect(Number(row?.lb_last_sent_at)).toBe(NOW);
  });
});
