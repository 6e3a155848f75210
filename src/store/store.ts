/**
 * The store: one interface, two engines (SQLite, PostgreSQL). Every engine difference lives in
 * src/store/: features state intentions (lock this row, claim rows nobody else is claiming, run this
 * statement for many rows, append a batch with the totals it implies, debit a balance on the hot path,
 * pay a charge in the statement it pays for) and the engine decides how. Nothing outside src/store/ imports an engine's
 * module or constant (the lint refuses it), save the composition root.
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
 *   must await `durable` before acknowledging anything (with `syncLater`: once committed, see WriteOptions). Metering charges this way so the charge and
 *   the handler's own write share one SQLite commit. It sees uncommitted writes of the open group.
 * - touches: the tables a statement reads or writes, declared by its caller. SQLite applies the held
 *   writes (see WriterLane) of those tables before the statement, and all of them when undeclared.
 */
import type { BulkInsert } from './bulk-insert.js';
import type { MergeWalks } from './intentions.js';
import type { Debits, DebitStatements } from './debits.js';

/** PostgreSQL: the connections an instance keeps open when DATABASE_POOL_SIZE does not say (docs/operations.md#settings). */
export const DEFAULT_POOL_SIZE = 20;

export interface RunResult {
  readonly changes: number;
}

export interface Sql {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  run(sql: string, params?: readonly unknown[]): Promise<RunResult>;
}

/** Which engine a store runs on: for the store's own code and the composition root's (its log line, the pools' sizes) only. */
export type Dialect = 'sqlite' | 'postgres';

export interface WriteOptions {
  /** Every table the statement reads or writes; undeclared means any table (the safe default). */
  readonly touches?: readonly string[];
  /**
   * writeDeferred only: `durable` settles once the write is committed (it survives a crash of the process), and
   * the engine makes it durable shortly after (SQLite: within READ_CHARGE_SYNC_MS). For writes whose loss in a
   * power cut costs no user anything (the charges of read-only calls, call-log rows); never for user data or money.
   */
  readonly syncLater?: boolean;
}

export interface InsertOptions {
  /** The rows of each of the insert's `also` statements (BulkInsert.also), in order. */
  readonly alsoRows?: readonly (readonly (readonly unknown[])[])[];
  readonly syncLater?: boolean;
}

/** The type of a column of rows bound together (see ColumnForm): integers, text, or text kept as the engine keeps storedText. */
export type ColumnType = 'bigint' | 'int' | 'text' | 'bytes';

/**
 * A statement over many rows at once, where the engine binds a whole column as one parameter (PostgreSQL): `sql` is given
 * a row source, to follow FROM (then `AS v(names)`, or `WITH ORDINALITY AS v(names, i)` for each row's 1-based position),
 * whose kth row is every column's kth value, column i of type `types[i]`. The engine makes the text once per form.
 */
export interface ColumnForm {
  readonly types: readonly ColumnType[];
  readonly sql: (rows: string) => string;
}

/**
 * One statement for many rows. `sql` takes one row's values as $1..$n. `columns`, when given, is the
 * same statement over all rows at once: engines that bind columns (PostgreSQL) run it as one statement,
 * the others run `sql` once per row. Every row answers; a failing row fails the whole call.
 */
export interface ManyStatement extends WriteOptions {
  readonly sql: string;
  readonly columns?: ColumnForm;
}

/** SQL tails that take row locks where the engine has them (table names are the code's own). */
export interface RowLocks {
  /** Appended to a SELECT in a unit: the rows read stay locked until the unit ends (PostgreSQL ` FOR UPDATE`). */
  readonly forUpdate: string;
  /**
   * Appended to a SELECT that claims rows: locks them as forUpdate (only `of`'s rows when given) but passes
   * over rows another transaction holds instead of waiting (PostgreSQL ` FOR UPDATE [OF t] SKIP LOCKED`).
   */
  skipLocked(of?: string): string;
}

/**
 * What a unit of work runs on. SQLite's one writer runs units one at a time, so its row locks are empty
 * and lockRow does nothing; PostgreSQL units run concurrently and take real row locks.
 */
export interface Unit extends Sql {
  readonly locks: RowLocks;
  /** Locks the row of `table` whose columns equal `key` until the unit ends; a unit locking it meanwhile waits. */
  lockRow(table: string, key: Readonly<Record<string, string | number>>): Promise<void>;
  executeMany<T>(statement: ManyStatement, rows: readonly (readonly unknown[])[]): Promise<T[]>;
}

/** Runs one statement synchronously on the SQLite writer connection. */
export type SyncRun = <T>(sql: string, params?: readonly unknown[]) => T[];

/**
 * SQLite's store only (not on Store): the hot path's synchronous access to the open group commit, so it can keep small
 * writes in memory and merge them (see HeldWrites). Every rule of `write` still holds: nothing is
 * acknowledged before `durable`, and a held write that fails to apply rolls the whole group back.
 */
export interface WriterLane {
  /**
   * Runs `sql` now in the open group; undefined while a unit owns the connection (use the async paths then).
   * `touches` as in WriteOptions; `keepHeld` is `touches: []`: the caller knows the statement cannot observe
   * any held write (e.g. it touches another row), so they stay held instead of being applied first.
   */
  runNow<T>(
    sql: string,
    params?: readonly unknown[],
    options?: WriteOptions & { keepHeld?: boolean },
  ): { rows: T[]; durable: Promise<void> } | undefined;
  /**
   * What a write joining the open group (a held one) waits for: its COMMIT with `syncLater`, else its fsync,
   * which the group then wants (see WriteOptions.syncLater).
   */
  groupSettled(syncLater: boolean): Promise<void>;
  /** `flush` applies a held write; it runs before the next statement that touches `table`, before any unit, and before COMMIT. */
  hold(table: string, flush: (run: SyncRun) => void): void;
}

export interface Store {
  /** For src/store/ and the composition root only: features state intentions instead. */
  readonly dialect: Dialect;
  readonly read: Sql;
  write<T>(unit: (tx: Unit) => Promise<T>): Promise<T>;
  writeOne<T>(sql: string, params?: readonly unknown[], options?: WriteOptions): Promise<T[]>;
  writeDeferred<T>(
    sql: string,
    params?: readonly unknown[],
    options?: WriteOptions,
  ): Promise<{ rows: T[]; durable: Promise<void> }>;
  /**
   * Appends rows to a table in bulk (see bulk-insert.ts), `values` flat, row after row, and writes the rows it implies
   * (`alsoRows`, by the insert's `also` statements) atomically with them. `syncLater` as in WriteOptions: resolves once
   * committed, made durable shortly after.
   */
  insertRows(insert: BulkInsert, values: readonly unknown[], options?: InsertOptions): Promise<void>;
  /** executeMany as one atomic write. */
  executeMany<T>(statement: ManyStatement, rows: readonly (readonly unknown[])[]): Promise<T[]>;
  readonly locks: RowLocks;
  /** Index walks merged in one order as they go (see MergeWalks). */
  readonly mergeWalks: MergeWalks;
  /** A text value as the engine keeps text that may hold U+0000 (PostgreSQL TEXT cannot: UTF-8 bytes there). */
  storedText(value: string): string | Buffer;
  /**
   * The hot path's conditional debits of `statements.table` rows, run the engine's fastest way (see debits.ts): held and
   * merged within a group commit on SQLite, batched per row under its lock on PostgreSQL. Make one per statement set, once.
   */
  debits(statements: DebitStatements): Debits;
  /**
   * This process is the database's only writer (SQLite: one instance per database), so a row it read stays as read
   * until it writes it itself: a feature may keep what it read in memory, forgetting it on its own writes.
   */
  readonly soleWriter: boolean;
  migrate(): Promise<void>;
  close(): Promise<void>;
}
