import Database from 'better-sqlite3';
import { insertRowsSqlite } from '../bulk-insert.js';
import { fdatasync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunResult, Sql, Store, WriterLane } from '../store.js';
import { HeldDebits } from './held-debits.js';
import { NO_LOCKS, SQLITE_MERGE_WALKS } from '../intentions.js';
import { normaliseParam } from '../params.js';
import { applySqliteMigrations } from './sqlite-migrate.js';
import { SqliteWriter } from './sqlite-writer.js';
import { WalSync } from './wal-sync.js';
import { ReadSnapshot } from './read-snapshot.js';
import { makeDatabasePrivate } from './private-files.js';
import type { TightenedFile } from './private-files.js';
import type { FsyncFunction } from './wal-sync.js';
import type { SqliteMetrics } from '../../observability/metrics.js';

type Statement = Database.Statement<unknown[], unknown>;

/**
 * Statements are written with PostgreSQL's `$n`. When each appears once and in order they become
 * SQLite's `?` and bind from the values as they are (the common case, and the cheapest); otherwise they
 * become `@pn` and bind from an object.
 */
interface Prepared {
  readonly statement: Statement;
  readonly positional: boolean;
}

function prepareText(sql: string): { text: string; positional: boolean } {
  const numbers = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
  const positional = numbers.every((n, i) => n === i + 1);
  return { text: sql.replace(/\$(\d+)/g, positional ? '?' : '@p$1'), positional };
}

/** Longer lists go as one array: a spread of that many arguments would strain the stack for little gain. */
const MOST_SPREAD = 1000;
const NO_ARGUMENTS: readonly unknown[] = [];

/** A value better-sqlite3 would read as a list or as named parameters if it were an argument of its own. */
const isContainer = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);

/**
 * The arguments better-sqlite3 binds from. Positional values go as arguments of their own: it binds those directly,
 * while an array argument costs it a Node-API element lookup per value (the call log's 600-value inserts: ~0.2 µs a
 * row; bench/RESULTS.md). A container (never a valid value) keeps the array form, so it is refused as before, not
 * spread into other parameters. `@pn` statements bind from one object.
 */
function bindArguments(params: readonly unknown[] | undefined, positional: boolean): readonly unknown[] {
  if (params === undefined) return NO_ARGUMENTS;
  if (!positional) {
    const named: Record<string, unknown> = {};
    for (let i = 0; i < params.length; i++) named[`p${i + 1}`] = normaliseParam(params[i]);
    return [named];
  }
  let normalise = false;
  let container = false;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (value === undefined || typeof value === 'boolean') normalise = true;
    else if (isContainer(value)) container = true;
  }
  const values = normalise ? params.map(normaliseParam) : params;
  return container || values.length > MOST_SPREAD ? [values] : values;
}

/** An Sql executor over one connection, with its own prepared-statement cache. */
export class SqliteConnection implements Sql {
  private readonly statements = new Map<string, Prepared>();

  /** `snapshot`: the reader's shared read transaction (read-snapshot.ts), entered before each statement. */
  constructor(
    readonly db: Database.Database,
    private readonly snapshot?: ReadSnapshot,
  ) {}

  private prepare(sql: string): Prepared {
    this.snapshot?.enter();
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      const { text, positional } = prepareText(sql);
      prepared = { statement: this.db.prepare(text), positional };
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  allSync<T>(sql: string, params?: readonly unknown[]): T[] {
    const { statement, positional } = this.prepare(sql);
    const args = bindArguments(params, positional);
    if (!statement.reader) {
      statement.run(...args);
      return [];
    }
    return statement.all(...args) as T[];
  }

  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return Promise.resolve(this.allSync<T>(sql, params));
  }

  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    const { statement, positional } = this.prepare(sql);
    const args = bindArguments(params, positional);
    if (!statement.reader) {
      statement.run(...args);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(statement.get(...args) as T | undefined);
  }

  run(sql: string, params?: readonly unknown[]): Promise<RunResult> {
    const { statement, positional } = this.prepare(sql);
    const args = bindArguments(params, positional);
    const changes = statement.reader ? statement.all(...args).length : statement.run(...args).changes;
    return Promise.resolve({ changes });
  }
}

export interface SqliteOptions {
  /** FULL makes every group commit reach the disk before it is acknowledged (power-loss safe); NORMAL survives a process crash only. */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** The OS call that makes the WAL durable (tests replace it to observe what waits for it). */
  readonly fsync?: FsyncFunction;
  /** How many fsyncs of the WAL may run at once (default: wal-sync.ts's FSYNCS_IN_FLIGHT; tests of several set it). */
  readonly fsyncsInFlight?: number;
  /** Told of each group commit's size and each fsync's duration. */
  readonly metrics?: SqliteMetrics;
  /** READ_CHARGE_SYNC_MS: the longest a commit of `syncLater` writes only waits for its fsync (default 10). */
  readonly lateSyncMs?: number;
  /** Told of each database file found readable by others at open (see private-files.ts). */
  readonly onWideFile?: (file: TightenedFile) => void;
}

/** The fsync, timed for the metrics. */
function timedFsync(fsync: FsyncFunction, metrics: SqliteMetrics | undefined): FsyncFunction {
  if (metrics === undefined) return fsync;
  return (fd, callback) => {
    const started = performance.now();
    fsync(fd, (error) => {
      metrics.fsynced((performance.now() - started) / 1000);
      callback(error);
    });
  };
}

/** The SQLite store, with its writer lane for the store's own code and its tests (see WriterLane). */
export interface SqliteStore extends Store {
  readonly lane: WriterLane;
}

export function openSqliteStore(path: string, options: SqliteOptions = {}): SqliteStore {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    for (const file of makeDatabasePrivate(path)) options.onWideFile?.(file);
  }
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  // FULL durability without SQLite's fsync inside COMMIT, which would stall the event loop: the WAL is
  // fsynced on the thread pool instead and commits are acknowledged after it (see WalSync).
  const walSync =
    (options.synchronous ?? 'FULL') === 'FULL' && path !== ':memory:'
      ? new WalSync(`${path}-wal`, {
          fsync: timedFsync(options.fsync ?? fdatasync, options.metrics),
          slots: options.fsyncsInFlight,
        })
      : undefined;
  writer.pragma('synchronous = NORMAL');
  writer.pragma('busy_timeout = 5000');
  // Units (savepoints) and statements inside the open group commit keep their undo pages (the sub-journal) in
  // memory. By default past 64 KiB they go to a temp file: under load a log batch created, wrote and unlinked one
  // on the event loop ~17 times a second, and a full temp directory could fail the whole group.
  writer.pragma('temp_store = MEMORY');
  // A second connection for reads: it only ever sees committed data, even while a group commit is open.
  const reader = new Database(path);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');
  const writeConnection = new SqliteConnection(writer);
  const snapshot = new ReadSnapshot(reader);
  const readConnection = new SqliteConnection(reader, snapshot);
  // The reader's snapshot ends before each commit: reads after it see it (read-snapshot.ts).
  const writerLane = new SqliteWriter(writeConnection, {
    walSync,
    metrics: options.metrics,
    lateSyncMs: options.lateSyncMs,
    beforeCommit: () => snapshot.release(),
  });

  return {
    dialect: 'sqlite',
    read: readConnection,
    write: (unit) => writerLane.write(unit),
    writeOne: (sql, params, options) => writerLane.writeOne(sql, params, options),
    writeDeferred: (sql, params, options) => writerLane.deferred(sql, params, options),
    executeMany: (statement, rows) => writerLane.write((tx) => tx.executeMany(statement, rows)),
    insertRows: (insert, values, options) =>
      values.length === 0
        ? Promise.resolve()
        : writerLane.write((tx) => insertRowsSqlite(tx, insert, values, options?.alsoRows), options?.syncLater),
    locks: NO_LOCKS,
    mergeWalks: SQLITE_MERGE_WALKS,
    storedText: (value) => value,
    // `this`: the store as the caller holds it (traced or not), for the path taken while a unit owns the connection.
    debits(statements) {
      return new HeldDebits(this, writerLane, statements);
    },
    lane: writerLane,
    soleWriter: true,
    migrate: async () => applySqliteMigrations(writer),
    close: async () => {
      await writerLane.drain();
      walSync?.close();
      reader.close();
      writer.close();
    },
  };
}
