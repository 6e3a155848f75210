import { expect, it } from 'vitest';
import pg from 'pg';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock } from '../../helpers/app.js';
import { LOG_WALK_INTERVAL_MS } from '../../../src/jobs/sweepers.js';
import { startRetention, sweep } from '../../../src/retention.js';
import { TOKEN_INACTIVITY_MS } from '../../../src/ledger/retention.js';
import { WALLET_DATA_TABLES } from '../../../src/ledger/ledger.js';
import { claimLease } from '../../../src/store/leases.js';
import { DAY, HOUR } from '../../../src/lib/time.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import { LOG_BATCH_SPAN_MS } from '../../../src/ledger/log-batches.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';

const count = async (app: ReturnType<ReturnType<typeof useTestApp>>, table: string) =>
  Number((await app.deps.store.read.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n);

describeEachStore('sweepers', (kind) => {
  const clock = new ManualClock();
  const testApp = useTestApp(kind, { clock });

  it('removes expired keys and keeps live ones', async () => {
    const app = testApp();
    const token = await app.createToken(100);
    await app.inject({ method: 'POST', url: '/kv/s/short?ttl=5', payload: 'a', headers: { 'x-token': token } });
    await app.inject({ method: 'POST', url: '/kv/s/long?ttl=500', payload: 'b', headers: { 'x-token': token } });
    clock.advance(10_000);
    const report = await sweep(app.deps);
    expect(report.expiredKeys).toBe(1);
    const rows = await app.deps.store.read.all<{ key: string }>('SELECT key FROM kv');
    expect(rows.map((r) => r.key)).toEqual(['long']);
  });

  it.skipIf(kind !== 'postgres')('neither waits for nor deletes an expired key that is being set anew', async () => {
    const app = testApp();
    const token = await app.createToken(100);
    await app.inject({ method: 'POST', url: '/kv/s/again?ttl=5', payload: 'old', headers: { 'x-token': token } });
    clock.advance(10_000);
    // Another writer holds the expired row while it gives it a new value and a later expiry.
    const writer = new pg.Client({ connectionString: app.deps.config.databaseUrl });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query("UPDATE kv SET value = convert_to('new', 'UTF8'), expires_at = $1 WHERE key = 'again'", [
        clock.now() + HOUR,
      ]);
      const report = await sweep(app.deps);
      expect(report.expiredKeys).toBe(0);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    await sweep(app.deps);
    expect((await app.inject({ method: 'GET', url: '/kv/s/again', headers: { 'x-token': token } })).body).toBe('new');
  });

  it('deletes log entries once they are 7 days old', async () => {
    const app = testApp();
    const token = await app.createToken(100);
    await app.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    await app.deps.ledger.flush();
    const before = await count(app, 'logs');
    clock.advance(7 * DAY - HOUR);
    expect((await sweep(app.deps)).expiredLogs).toBe(0);
    clock.advance(HOUR);
    expect((await sweep(app.deps)).expiredLogs).toBe(before);
    expect(await count(app, 'logs')).toBe(0);
  });

  it('deletes expired log entries past one batch in a single sweep, and keeps the younger ones', async () => {
    const app = testApp();
    const token = await app.createToken(100);
    const walletId = (await app.deps.ledger.findWallet(sha256Hex(token)))?.id as number;
    await app.deps.ledger.flush();
    await app.deps.store.writeOne('DELETE FROM log_batches');
    const start = clock.now();
    // `apart`: ms between entries; more than a batch's span puts each in a batch of its own (a sweep takes batches).
    const rows = (count: number, createdAt: number, apart = 0): LogRecord[] =>
      Array.from({ length: count }, (_, i) => ({
        id: `sweep-${createdAt}-${i}`,
        walletId,
        method: 'GET',
        path: '/kv/a/b',
        endpoint: 'kv',
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: createdAt + i * apart,
        cost: 1,
        balance: 1,
      }));
    await insertLogs(app.deps.store, rows(2500, start));
    await insertLogs(app.deps.store, rows(7, start + HOUR));
    clock.advance(7 * DAY + 1);
    expect((await sweep(app.deps)).expiredLogs).toBe(2500);
    expect(await count(app, 'logs')).toBe(7);

    // Rows written late (kept through an outage) sit behind more than a sweep's batches of younger ones in seq order:
    // the per-minute pass never reaches them, the walk of the whole table does, well inside the 24 h of docs/contract.md#call-logs.
    await insertLogs(app.deps.store, rows(1200, clock.now(), LOG_BATCH_SPAN_MS + 1));
    await insertLogs(app.deps.store, rows(3, clock.now() - 2 * DAY));
    clock.advance(5 * DAY + 1);
    expect((await sweep(app.deps)).expiredLogs).toBe(7);
    expect(await count(app, 'logs')).toBe(1203);
    expect((await sweep(app.deps, { walkAllLogs: true })).expiredLogs).toBe(3);
    expect(await count(app, 'logs')).toBe(1200);
    expect(LOG_WALK_INTERVAL_MS).toBeLessThan(DAY);
  });

  it('running, walks the whole log table at its first pass and then every LOG_WALK_INTERVAL_MS, not every pass nor at every start', async () => {
    const app = testApp();
    const walletId = (await app.deps.ledger.findWallet(sha256Hex(await app.createToken(100))))?.id as number;
    await app.deps.ledger.flush();
    await app.deps.store.writeOne('DELETE FROM log_batches');
    // `apart`: ms between entries; more than a batch's span puts each in a batch of its own (a sweep takes batches).
    const rows = (count: number, createdAt: number, apart = 0): LogRecord[] =>
      Array.from({ length: count }, (_, i) => ({
        id: `walk-${createdAt}-${i}`,
        walletId,
        method: 'GET',
        path: '/',
        endpoint: 'kv',
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: createdAt + i * apart,
        cost: 1,
        balance: 1,
      }));
    const settlesAt = async (expected: number): Promise<void> => {
      for (const deadline = Date.now() + 5_000; (await count(app, 'logs')) !== expected && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await count(app, 'logs')).toBe(expected);
    };
    // Late rows, long expired, behind more than a batch of young ones in seq order.
    await insertLogs(app.deps.store, rows(1200, clock.now(), LOG_BATCH_SPAN_MS + 1));
    await insertLogs(app.deps.store, rows(3, clock.now() - 8 * DAY));
    let stop = startRetention(app.deps, 'walk-test', 50);
    try {
      await settlesAt(1200);
      await insertLogs(app.deps.store, rows(3, clock.now() - 8 * DAY));
      await new Promise((resolve) => setTimeout(resolve, 300)); // several passes, no walk
      expect(await count(app, 'logs')).toBe(1203);
      // Nor after a restart, or on another instance: the walk is claimed in the store.
      await stop();
      stop = startRetention(app.deps, 'walk-test-restarted', 50);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await count(app, 'logs')).toBe(1203);
      clock.advance(LOG_WALK_INTERVAL_MS);
      await settlesAt(1200);
    } finally {
      await stop();
    }
  });

  it('deletes a token unused for 2 years with all its data, and keeps a token used since', async () => {
    const app = testApp();
    const idle = await app.createToken(100);
    const busy = await app.createToken(100);
    clock.advance(TOKEN_INACTIVITY_MS - DAY);
    // The busy token is used a day before the limit: its last use moves forward.
    expect(
      (await app.inject({ method: 'POST', url: '/kv/s/k', payload: 'busy', headers: { 'x-token': busy } })).statusCode,
    ).toBe(200);
    // A row of the idle wallet that would outlive it (rows normally expire sooner): it must go with the wallet.
    const idleWallet = await app.deps.store.read.get<{ id: number }>('SELECT id FROM wallets ORDER BY id LIMIT 1');
    await app.deps.store.writeOne(
      'INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [idleWallet?.id, 's', 'k', 'idle', clock.now() + 365 * DAY],
    );
    clock.advance(2 * DAY);
    const wallets = await count(app, 'wallets');
    const report = await sweep(app.deps);
    // Every wallet but the busy one (earlier tests in this block made idle ones too).
    expect(report.deletedWallets).toBe(wallets - 1);
    expect(await count(app, 'wallets')).toBe(1);
    expect((await app.inject({ method: 'GET', url: '/token', headers: { 'x-token': idle } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/kv/s/k', headers: { 'x-token': busy } })).body).toBe('busy');
    // PostgreSQL keeps values as UTF-8 bytes.
    const left = await app.deps.store.read.all<{ value: string | Buffer }>('SELECT value FROM kv');
    expect(left.map((r) => r.value.toString())).toEqual(['busy']);
  });

  it('knows every table that holds wallet data (stripe_credits is kept on purpose, as the record of payments)', async () => {
    const sql =
      kind === 'sqlite'
        ? "SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'wallet_id'"
        : "SELECT c.table_name AS name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE c.column_name = 'wallet_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'";
    const tables = (await testApp().deps.store.read.all<{ name: string }>(sql)).map((row) => row.name);
    expect(tables.sort()).toEqual([...WALLET_DATA_TABLES, 'stripe_credits'].sort());
  });

  it('lets only one instance hold the sweep lease until it runs out', async () => {
    const app = testApp();
    const now = clock.now();
    expect(await claimLease(app.deps.store, { name: 'test-lease', holder: 'a', now, ttlMs: 60_000 })).toBe(true);
    expect(await claimLease(app.deps.store, { name: 'test-lease', holder: 'b', now: now + 1000, ttlMs: 60_000 })).toBe(
      false,
    );
    expect(
      await claimLease(app.deps.store, { name: 'test-lease', holder: 'b', now: now + 60_000, ttlMs: 60_000 }),
    ).toBe(true);
  });
});
