/**
 * The store: one interface, two engines (SQLite, PostgreSQL).
 *
 * Glossary
 * - Sql: a dialect-neutral executor. SQL is written once with PostgreSQL-style `$1` placeholders;
 *   the SQLite engine rewrites them. Integers come back as JS numbers on both engines
 *   (timestamps are epoch milliseconds in BIGINT columns), booleans as 0/1 integers, JSON as TEXT.
 * - read: runs against committed data only, never inside someone else's open transaction.
 * - write(unit): an atomic unit of work. When its promise resolves the unit is committed and durable.
 *   SQLite groups the writes of one event-loop turn into one transaction (group commit), each unit
 *   inside its own savepoint; PostgreSQL runs each unit in its own transaction.
 * - writeOne(sql): a single-statement write, the cheap path for the hot path on both engines.
 * - writeDeferred(sql): like writeOne, but the rows come back before the write is durable; the caller
 *   must await `durable` before acknowledging anything. Metering charges this way so the charge and
 *   the handler's own write share one SQLite commit. It sees uncommitted writes of the open group.
 */
export interface RunResult {
  readonly changes: number;
}

export interface Sql {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  run(sql: string, params?: readonly unknown[]): Promise<RunResult>;
}

export type Dialect = 'sqlite' | 'postgres';

/** Runs one statement synchronously on the SQLite writer connection. */
export type SyncRun = <T>(sql: string, params?: readonly unknown[]) => T[];

/**
 * SQLite only: the hot path's synchronous access to the open group commit, so it can keep small
 * writes in memory and merge them (see HeldWrites). Every rule of `write` still holds: nothing is
 * acknowledged before `durable`, and a held write that fails to apply rolls the whole group back.
 */
export interface WriterLane {
  /**
   * Runs `sql` now in the open group; undefined while a unit owns the connection (use the async paths then).
   * `keepHeld`: the caller knows the statement cannot observe any held write (e.g. it touches another row),
   * so they stay held instead of being applied first.
   */
  runNow<T>(sql: string, params?: readonly unknown[], options?: { keepHeld?: boolean }): { rows: T[]; durable: Promise<void> } | undefined;
  /** `flush` applies a held write; it runs before the next statement naming `table`, before any unit, and before COMMIT. */
  hold(table: string, flush: (run: SyncRun) => void): void;
}

export interface Store {
  readonly dialect: Dialect;
  readonly read: Sql;
  write<T>(unit: (tx: Sql) => Promise<T>): Promise<T>;
  writeOne<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  writeDeferred<T>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[]; durable: Promise<void> }>;
  /** Present on SQLite only. */
  readonly lane?: WriterLane;
  migrate(): Promise<void>;
  close(): Promise<void>;
}
