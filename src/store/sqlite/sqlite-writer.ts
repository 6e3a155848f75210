import type { SyncRun, Unit, WriteOptions, WriterLane } from '../store.js';
import { eachRow, NO_LOCKS } from '../intentions.js';
import { HeldWrites } from './held-writes.js';
import type { SqliteConnection } from './sqlite-store.js';
import type { WalSync } from './wal-sync.js';
import type { SqliteMetrics } from '../../observability/metrics.js';

/** READ_CHARGE_SYNC_MS's default. */
export const DEFAULT_LATE_SYNC_MS = 10;

const ignoreSyncOutcome = (): void => undefined;

interface Settlement {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function settlement(): Settlement {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // observed by whoever awaits it; never an unhandled rejection
  return { promise, resolve, reject };
}

interface OpenTransaction {
  /** Settles once the group is committed and durable (or, when no write of it wants its fsync, committed). */
  readonly committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  /** A write of the group waits for its fsync: every one but `syncLater` writes. */
  syncWanted: boolean;
  /** Settles at COMMIT, for the group's `syncLater` writes; made by the first of them. */
  visible?: Settlement;
  /** A held write that could not be applied: the group must not commit. */
  failure?: unknown;
  /** Statements and units in the group (metrics). */
  writes: number;
}

function openTransaction(): OpenTransaction {
  const { promise, resolve, reject } = settlement();
  return { committed: promise, resolve, reject, syncWanted: false, writes: 0 };
}

/**
 * Group commit on the one SQLite writer connection. Statements run at once inside a transaction
 * that stays open until the end of the current event-loop turn, then one COMMIT makes every write
 * of that turn durable together (with `walSync`, once the fsync it runs off the event loop is done).
 * Callers are answered only after that, so an acknowledged write is never lost; a charge can run at
 * once and its request waits for durability later (`deferred`), which lets the charge and the
 * handler's own write share one commit.
 *
 * A `syncLater` write (a read-only call's charge) is answered at COMMIT instead: the WAL is fsynced within
 * `lateSyncMs` by one timer per window, or sooner by the fsync of the next group that wants one (an fsync
 * covers every commit before it). A group that has any other write still waits for its fsync, whatever
 * `syncLater` writes share it.
 *
 * Multi-statement units run inside a savepoint and nothing else touches the connection while one
 * is running (statements arriving meanwhile wait their turn), so a failing unit rolls back only itself.
 */
export interface SqliteWriterOptions {
  /** When set, COMMIT does not fsync and durability comes from it, off the event loop. */
  readonly walSync?: WalSync | undefined;
  readonly metrics?: Pick<SqliteMetrics, 'groupCommitted'> | undefined;
  /** The longest a commit of `syncLater` writes only waits for the fsync that makes it durable. */
  readonly lateSyncMs?: number | undefined;
  /** Runs right before each COMMIT (the reader's snapshot ends there, see read-snapshot.ts). */
  readonly beforeCommit?: (() => void) | undefined;
}

export class SqliteWriter implements WriterLane {
  private current: OpenTransaction | undefined;
  private unitRunning = false;
  private commitWanted = false;
  private units: Promise<void> = Promise.resolve();
  private readonly held = new HeldWrites();
  private readonly runSync: SyncRun;
  /** What units run on: the writer connection, with nothing to lock (units already run one at a time). */
  private readonly unitSql: Unit;
  /** Armed by the first commit of `syncLater` writes only that no fsync has covered yet; one per window. */
  private lateSync: NodeJS.Timeout | undefined;
  private readonly syncLate = (): void => {
    this.lateSync = undefined;
    // A failure needs no one told here: WalSync keeps it, and every later commit that waits for an fsync is refused with it.
    this.walSync?.whenDurable(ignoreSyncOutcome);
  };

  private readonly walSync: WalSync | undefined;
  private readonly metrics: Pick<SqliteMetrics, 'groupCommitted'> | undefined;
  private readonly lateSyncMs: number;
  private readonly beforeCommit: (() => void) | undefined;

  constructor(
    private readonly connection: SqliteConnection,
    options: SqliteWriterOptions = {},
  ) {
    this.walSync = options.walSync;
    this.metrics = options.metrics;
    this.lateSyncMs = options.lateSyncMs ?? DEFAULT_LATE_SYNC_MS;
    this.beforeCommit = options.beforeCommit;
    this.runSync = (sql, params) => connection.allSync(sql, params);
    this.unitSql = {
      all: (sql, params) => connection.all(sql, params),
      get: (sql, params) => connection.get(sql, params),
      run: (sql, params) => connection.run(sql, params),
      locks: NO_LOCKS,
      lockRow: () => Promise.resolve(),
      executeMany: (statement, rows) => eachRow(connection, statement, rows),
    };
  }

  /** Runs now (or right after a running unit); the rows come back before the commit. */
  async deferred<T>(
    sql: string,
    params?: readonly unknown[],
    options?: WriteOptions,
  ): Promise<{ rows: T[]; durable: Promise<void> }> {
    const touches = options?.touches;
    const syncLater = options?.syncLater === true;
    if (this.unitRunning) return this.afterUnits(async () => this.execute<T>(sql, params, touches, syncLater));
    return this.execute<T>(sql, params, touches, syncLater);
  }

  runNow<T>(
    sql: string,
    params?: readonly unknown[],
    options?: WriteOptions & { keepHeld?: boolean },
  ): { rows: T[]; durable: Promise<void> } | undefined {
    return this.unitRunning
      ? undefined
      : this.execute<T>(sql, params, options?.keepHeld === true ? [] : options?.touches, options?.syncLater === true);
  }

  groupSettled(syncLater: boolean): Promise<void> {
    const transaction = this.current ?? this.transaction();
    return this.settledFor(transaction, syncLater);
  }

  /** What a write of `transaction` waits for: its COMMIT (`syncLater`), or its fsync, which the group then wants. */
  private settledFor(transaction: OpenTransaction, syncLater: boolean): Promise<void> {
    if (!syncLater) {
      transaction.syncWanted = true;
      return transaction.committed;
    }
    transaction.visible ??= settlement();
    return transaction.visible.promise;
  }

  hold(table: string, flush: (run: SyncRun) => void): void {
    this.held.hold(table, flush);
  }

  async writeOne<T>(sql: string, params?: readonly unknown[], options?: WriteOptions): Promise<T[]> {
    const { rows, durable } = await this.deferred<T>(sql, params, options);
    await durable;
    return rows;
  }

  /** `syncLater`: resolves at the group's COMMIT and asks for no fsync of its own (see WriteOptions.syncLater). */
  async write<T>(unit: (tx: Unit) => Promise<T>, syncLater = false): Promise<T> {
    const { value, durable } = await this.afterUnits(() => this.runUnit(unit, syncLater));
    await durable;
    return value;
  }

  /** Commits whatever is open; resolves when nothing is pending. */
  async drain(): Promise<void> {
    this.cancelLateSync(); // the fsync below covers what it would have
    await this.units;
    if (this.current !== undefined) {
      const { committed } = this.current;
      this.commit();
      await committed.catch(() => undefined);
    }
    const walSync = this.walSync;
    // Durable, and no other fsync still running: the store closes the WAL descriptors next.
    if (walSync !== undefined)
      await new Promise<void>((resolve) => walSync.whenDurable(() => walSync.whenIdle(resolve)));
    this.cancelLateSync();
  }

  private cancelLateSync(): void {
    if (this.lateSync === undefined) return;
    clearTimeout(this.lateSync);
    this.lateSync = undefined;
  }

  /** `touches`: the tables whose held writes go in first (all of them when undefined). */
  private execute<T>(
    sql: string,
    params: readonly unknown[] | undefined,
    touches: readonly string[] | undefined,
    syncLater: boolean,
  ): { rows: T[]; durable: Promise<void> } {
    const transaction = this.transaction();
    if (touches === undefined || touches.length > 0) this.applyHeld(transaction, touches);
    try {
      const rows = this.connection.allSync<T>(sql, params); // a failing statement undoes only itself…
      return { rows, durable: this.settledFor(transaction, syncLater) };
    } catch (error) {
      // …unless SQLite rolled the whole transaction back (disk full, I/O error): then the group is lost, and must not commit.
      if (!this.connection.db.inTransaction) this.abandon(transaction, error);
      throw error;
    }
  }

  private async runUnit<T>(
    unit: (tx: Unit) => Promise<T>,
    syncLater: boolean,
  ): Promise<{ value: T; durable: Promise<void> }> {
    const transaction = this.transaction();
    this.applyHeld(transaction);
    const db = this.connection.db;
    this.unitRunning = true;
    db.exec('SAVEPOINT unit');
    try {
      const value = await unit(this.unitSql);
      db.exec('RELEASE unit');
      return { value, durable: this.settledFor(transaction, syncLater) };
    } catch (error) {
      db.exec('ROLLBACK TO unit');
      db.exec('RELEASE unit');
      throw error;
    } finally {
      this.unitRunning = false;
      if (this.commitWanted) setImmediate(() => this.commit());
    }
  }

  /** Held writes go in before anything that could observe them (all of them when `touches` is absent). */
  private applyHeld(transaction: OpenTransaction, touches?: readonly string[]): void {
    if (this.held.empty) return;
    try {
      this.held.flush(this.runSync, touches);
    } catch (error) {
      transaction.failure ??= error;
    }
  }

  private afterUnits<T>(work: () => Promise<T>): Promise<T> {
    const result = this.units.then(work);
    this.units = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private transaction(): OpenTransaction {
    if (this.current === undefined) {
      this.connection.db.exec('BEGIN IMMEDIATE');
      this.current = openTransaction();
      setImmediate(() => this.commit());
    }
    this.current.writes++;
    return this.current;
  }

  /** The open group can no longer commit: its writers are told, and the next statement opens a new group. */
  private abandon(transaction: OpenTransaction, error: unknown): void {
    transaction.failure ??= error;
    if (this.current === transaction) this.current = undefined;
    transaction.reject(error);
    transaction.visible?.reject(error);
  }

  private commit(): void {
    if (this.unitRunning) {
      this.commitWanted = true;
      return;
    }
    this.commitWanted = false;
    const transaction = this.current;
    if (transaction === undefined) return;
    this.applyHeld(transaction);
    this.current = undefined;
    const db = this.connection.db;
    try {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what was caught, unchanged.
      if (transaction.failure !== undefined) throw transaction.failure;
      this.beforeCommit?.();
      db.exec('COMMIT');
      this.metrics?.groupCommitted(transaction.writes);
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      transaction.reject(error);
      transaction.visible?.reject(error);
      return;
    }
    transaction.visible?.resolve();
    const walSync = this.walSync;
    if (walSync === undefined) return transaction.resolve();
    if (!transaction.syncWanted) {
      // Only `syncLater` writes: nobody waits for an fsync; the timer brings one, or the next group that wants one does.
      transaction.resolve();
      this.lateSync ??= setTimeout(this.syncLate, this.lateSyncMs).unref();
      return;
    }
    this.cancelLateSync(); // this fsync covers the commits the timer was armed for
    walSync.whenDurable((error) => (error === null ? transaction.resolve() : transaction.reject(error)));
  }
}
