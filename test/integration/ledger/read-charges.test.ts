import { afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import type { ChargeOutcome } from '../../../src/ledger/ledger.js';
import { BatchedDebits } from '../../../src/store/postgres/batched-debits.js';
import { syncLaterUpdate } from '../../../src/store/postgres/sync-later.js';
import { CHARGE, insertWallet, WALLET_DEBITS } from '../../../src/ledger/wallet.queries.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import type { Store } from '../../../src/store/store.js';
import { insertRowsPostgres } from '../../../src/store/bulk-insert.js';
import { insertLogs, LOG_INSERT, spendRowsOf } from '../../../src/ledger/log-insert.js';
import { encodeLogBatches } from '../../../src/ledger/log-batches.js';
import { settled } from '../../helpers/wait.js';

function durableOf(outcome: ChargeOutcome): Promise<void> {
  if (!outcome.ok) throw new Error(`charge refused: ${outcome.reason}`);
  return outcome.durable;
}

// Read-only calls' charges (`readOnly`) mixed with others in the same moment: the balance ends exact either way.
describeEachStore('read charges among other charges of the same wallet', (kind) => {
  let app: TestApp;
  afterEach(async () => app?.close());

  it.each(['deferred', 'durable'] as const)('end exact, each charge once (READ_CHARGES=%s)', async (readCharges) => {
    app = await startTestApp(kind, { env: { READ_CHARGES: readCharges } });
    const token = await app.createToken(30);
    const id = (await app.deps.ledger.findWallet(sha256Hex(token)))?.id as number;
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => app.deps.ledger.charge(id, 1, i % 3 !== 0)),
    );
    await Promise.all(outcomes.map((outcome) => (outcome.ok ? outcome.durable : undefined)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(30);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'insufficient')).toHaveLength(10);
    expect(await app.deps.store.read.get('SELECT balance FROM wallets WHERE id = $1', [id])).toEqual({ balance: 0 });
  });
});

// SQLite: what each charge waits for, observed with the WAL fsync held.
describe('SQLite: what a charge waits for when reads and writes share a group commit', () => {
  const disk = heldFsync();
  let app: TestApp | undefined;
  afterEach(async () => {
    disk.release();
    await app?.close();
    app = undefined;
  });

  async function start(readCharges: 'deferred' | 'durable'): Promise<{ a: number; b: number }> {
    disk.release();
    app = await startTestApp('sqlite', {
      env: { READ_CHARGES: readCharges },
      overrides: (config) => ({
        store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), {
          fsync: disk.fsync,
          lateSyncMs: config.readChargeSyncMs,
        }),
      }),
    });
    const ids = [];
    for (const credits of [100, 100]) {
      const token = await app.createToken(credits);
      ids.push((await app.deps.ledger.findWallet(sha256Hex(token)))?.id as number);
    }
    disk.hold();
    return { a: ids[0] as number, b: ids[1] as number };
  }

  /** Charges in one synchronous run: one group commit (SQLite's outcomes come back at once). */
  function chargeTogether(charges: readonly (readonly [wallet: number, readOnly: boolean])[]): ChargeOutcome[] {
    const ledger = (app as TestApp).deps.ledger;
    return charges.map(([wallet, readOnly]) => {
      const outcome = ledger.charge(wallet, 1, readOnly);
      if (outcome instanceof Promise) throw new Error('expected the outcome at once');
      return outcome;
    });
  }

  it.each([
    ['a read first, then a write of the same wallet (a held debit)', [true, false, true]],
    ['a write first, then reads of the same wallet (held debits)', [false, true, true]],
  ])('a write never settles before its fsync; the reads settle at COMMIT: %s', async (_name, readOnly) => {
    const { a, b } = await start('deferred');
    const fsyncsBefore = disk.calls;
    const outcomes = chargeTogether([...readOnly.map((ro) => [a, ro] as const), [b, true], [b, false]]);
    const all = [...readOnly, true, false];
    const states = await Promise.all(outcomes.map((outcome) => settled(durableOf(outcome))));
    expect(states).toEqual(all.map((ro) => (ro ? 'resolved' : 'pending')));
    expect(disk.calls).toBe(fsyncsBefore + 1); // the group's own fsync, held
    disk.complete(fsyncsBefore);
    expect(await Promise.all(outcomes.map((outcome) => settled(durableOf(outcome))))).toEqual(
      all.map(() => 'resolved'),
    );
    expect(await app?.deps.store.read.get('SELECT balance FROM wallets WHERE id = $1', [a])).toEqual({ balance: 97 });
  });

  it('a group of reads only is answered at COMMIT and fsynced within READ_CHARGE_SYNC_MS', async () => {
    const { a, b } = await start('deferred');
    const fsyncsBefore = disk.calls;
    const started = Date.now();
    const outcomes = chargeTogether([
      [a, true],
      [a, true],
      [b, true],
    ]);
    expect(await Promise.all(outcomes.map((outcome) => settled(durableOf(outcome))))).toEqual([
      'resolved',
      'resolved',
      'resolved',
    ]);
    // Committed: the reader connection sees it.
    expect(await app?.deps.store.read.get('SELECT balance FROM wallets WHERE id = $1', [a])).toEqual({ balance: 98 });
    while (disk.calls === fsyncsBefore && Date.now() - started < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(disk.calls).toBe(fsyncsBefore + 1);
    expect(Date.now() - started).toBeLessThan(10 + 100); // the default window and slack for a loaded machine
  });

  it('with READ_CHARGES=durable a read waits for its fsync', async () => {
    const { a } = await start('durable');
    const fsyncsBefore = disk.calls;
    const [read] = chargeTogether([[a, true]]);
    expect(await settled(durableOf(read as ChargeOutcome))).toBe('pending');
    expect(disk.calls).toBe(fsyncsBefore + 1);
    disk.complete(fsyncsBefore);
    expect(await settled(durableOf(read as ChargeOutcome))).toBe('resolved');
  });

  /** A paid call's log row, recorded and flushed: `flushed` settles once the batch's unit does (wrapped: an async function would wait for it). */
  async function flushedLogRow(walletId: number): Promise<{ flushed: Promise<void> }> {
    const ledger = (app as TestApp).deps.ledger;
    ledger.record({
      walletId,
      method: 'GET',
      path: '/kv/b/k',
      endpoint: 'kv',
      statusCode: 200,
      responseTimeMs: 1,
      cost: 1,
      balance: 99,
    });
    const flushed = ledger.flush();
    // The batch's unit runs after the microtasks of this turn; its COMMIT comes at the end of the turn.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    return { flushed };
  }

  it('a call-log batch is answered at COMMIT, brings no fsync of its own, and is on disk within READ_CHARGE_SYNC_MS', async () => {
    const { a } = await start('deferred');
    const fsyncsBefore = disk.calls;
    const started = Date.now();
    const { flushed } = await flushedLogRow(a);
    expect(await settled(flushed)).toBe('resolved');
    expect(await app?.deps.store.read.get('SELECT path FROM logs WHERE wallet_id = $1', [a])).toEqual({
      path: '/kv/b/k',
    });
    while (disk.calls === fsyncsBefore && Date.now() - started < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(disk.calls).toBe(fsyncsBefore + 1); // the window's one fsync, not one for the batch and one for the window
    expect(Date.now() - started).toBeLessThan(10 + 100);
  });

  it('with READ_CHARGES=durable a call-log batch waits for its fsync', async () => {
    const { a } = await start('durable');
    const fsyncsBefore = disk.calls;
    const { flushed } = await flushedLogRow(a);
    expect(await settled(flushed)).toBe('pending');
    expect(disk.calls).toBe(fsyncsBefore + 1);
    disk.complete(fsyncsBefore);
    expect(await settled(flushed)).toBe('resolved');
  });
});

// PostgreSQL: a batch of read charges only commits with synchronous_commit off, in the same single statement.
describe.runIf(process.env.TEST_DATABASE_URL !== undefined)(
  'PostgreSQL: read charges commit without waiting for the WAL flush',
  () => {
    let database: ScratchDatabase;
    let store: Store;
    let walletId: number;
    const sent: string[] = [];
    afterEach(async () => {
      await store.close();
      await database.drop();
    });

    async function open(): Promise<void> {
      database = await scratchDatabase('postgres');
      // One connection: what the statement leaves on it is what the next one sees.
      store = openPostgresStore(database.url, { poolSize: 1 });
      await store.migrate();
      await store.write((tx) => insertWallet(tx, 'hash', 100, Date.now()));
      walletId = (await store.read.get<{ id: number }>('SELECT id FROM wallets WHERE hash = $1', ['hash']))
        ?.id as number;
      sent.length = 0;
    }

    /** The store, with the statements the charges send recorded. */
    const recording = (): Store => ({
      ...store,
      writeOne: (sql, params, options) => {
        sent.push(sql);
        return store.writeOne(sql, params, options);
      },
    });

    const CHARGE_SYNC_LATER = syncLaterUpdate(CHARGE);

    it('turns synchronous_commit off for its own transaction only, and charges as CHARGE does', async () => {
      await open();
      const inside = await store.write(async (tx) => {
        const [row] = await tx.all<{ balance: number }>(CHARGE_SYNC_LATER, [3, walletId]);
        const setting = await tx.get<{ value: string }>("SELECT current_setting('synchronous_commit') AS value");
        return { row, setting };
      });
      expect(inside).toEqual({ row: { balance: 97 }, setting: { value: 'off' } });
      const [row] = await store.writeOne<{ balance: number }>(CHARGE_SYNC_LATER, [2, walletId]);
      expect(row).toEqual({ balance: 95 });
      expect(await store.read.get("SELECT current_setting('synchronous_commit') AS value")).toEqual({ value: 'on' });
      // A charge the balance does not cover changes nothing.
      expect(await store.writeOne(CHARGE_SYNC_LATER, [1000, walletId])).toEqual([]);
    });

    it('a batch of reads only sends it; one write in the batch makes the batch durable', async () => {
      await open();
      const charges = new BatchedDebits(recording(), WALLET_DEBITS);
      const reads = await Promise.all([charges.debit(walletId, 1, true), charges.debit(walletId, 1, true)]);
      expect(reads.map((outcome) => outcome.ok && outcome.balance)).toEqual([99, 98]);
      expect(sent).toEqual([CHARGE_SYNC_LATER]);
      sent.length = 0;
      const mixed = await Promise.all([charges.debit(walletId, 1, true), charges.debit(walletId, 1, false)]);
      expect(mixed.map((outcome) => outcome.ok && outcome.balance)).toEqual([97, 96]);
      expect(sent).toEqual([CHARGE]);
      expect(await store.read.get('SELECT balance FROM wallets WHERE id = $1', [walletId])).toEqual({ balance: 96 });
    });

    it('a call-log batch (READ_CHARGES=deferred) turns synchronous_commit off for its own transaction only, and writes its rows and totals', async () => {
      await open();
      const record = {
        walletId,
        method: 'GET',
        path: '/kv/b/k',
        endpoint: 'kv' as const,
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: Date.now(),
        cost: 1,
        balance: 99,
      };
      const inside = await store.write(async (tx) => {
        await insertRowsPostgres(tx, LOG_INSERT, encodeLogBatches([{ ...record, id: 'log-1' }]), {
          alsoRows: spendRowsOf([{ ...record, id: 'log-1' }]),
          syncLater: true,
        });
        return tx.get<{ value: string }>("SELECT current_setting('synchronous_commit') AS value");
      });
      expect(inside).toEqual({ value: 'off' });
      await insertLogs(store, [{ ...record, id: 'log-2' }], true);
      expect(await store.read.get("SELECT current_setting('synchronous_commit') AS value")).toEqual({ value: 'on' });
      expect(await store.read.all('SELECT id FROM logs ORDER BY id')).toEqual([{ id: 'log-1' }, { id: 'log-2' }]);
      expect(
        await store.read.get(
          'SELECT SUM(credits)::int AS credits, SUM(calls)::int AS calls FROM spend_hourly WHERE wallet_id = $1',
          [walletId],
        ),
      ).toEqual({
        credits: 2,
        calls: 2,
      });
    });
  },
);
