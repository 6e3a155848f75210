import type { ColumnForm, ManyStatement } from './store.js';

/**
 * The hot path's charge as an intention: a conditional debit of one row's balance, which each engine runs its fastest
 * way (SQLite: held and merged within a group commit, see sqlite/held-debits.ts; PostgreSQL: batched per row under its
 * lock, see postgres/batched-debits.ts). Both give the outcome of debiting one by one, in arrival order.
 */
export interface DebitStatements {
  /** The table of the debited rows: a debit touches only its own row of it. */
  readonly table: string;
  /**
   * `UPDATE <table> SET … WHERE id = $2 AND <balance covers $1> RETURNING balance`: $1 the amount, $2 the row's id; one
   * row (the balance after) when debited, none when the balance does not cover it or the row is gone. A debit of the
   * sum of several amounts must leave the row as debiting each would (the engine merges them).
   */
  readonly debit: string;
  /** `SELECT balance FROM <table> WHERE id = $1`. */
  readonly balance: string;
}

export type DebitOutcome =
  | { readonly ok: true; readonly balance: number; readonly durable: Promise<void> }
  | { readonly ok: false; readonly reason: 'insufficient'; readonly balance: number }
  | { readonly ok: false; readonly reason: 'gone' };

/**
 * Debits as the engine runs them. The outcome comes back as it is when it is known at once (SQLite's common case), so
 * the hot path allocates no promise for it; the caller awaits `durable` before acknowledging anything.
 */
export interface Debits {
  /**
   * `amount` > 0. `syncLater`: `durable` settles once the debit is committed, made durable shortly after (see
   * WriteOptions.syncLater); a debit batched with one that is not waits for the disk with it.
   */
  debit(id: number, amount: number, syncLater: boolean): DebitOutcome | Promise<DebitOutcome>;
  /**
   * Where a debit and the write it pays for can commit as one statement (PostgreSQL), the writer of `write`'s rows,
   * each row paying a debit of its owner's row: a row is written only when its debit is accepted, both in the same
   * commit, and its outcome is the debit's (already durable when accepted), with what the write returned for it
   * (PaidWrite.keyOfReturned). Debits of one row are accepted in
   * arrival order, as `debit`'s. Absent where a debit already shares the commit of the write that follows it
   * (SQLite's group commit holds both).
   */
  paidWrites?<T>(write: PaidWrite): (row: PaidWriteRow) => Promise<Paid<T>>;
  /**
   * As paidWrites, for a read (`read`, a ColumnForm selecting `i`, each row's 1-based position, with what it reads):
   * each row pays its debit in the read's statement, and is read only when the debit is accepted. `syncLater`: the
   * debits are a read-only call's (see WriteOptions.syncLater).
   */
  paidReads?<T>(read: ColumnForm, syncLater: boolean): (row: PaidRow) => Promise<Paid<T>>;
}

/** A paid row's answer: its debit's outcome and, when accepted, what its statement found for it (a read's row). */
export interface Paid<T> {
  readonly outcome: DebitOutcome;
  readonly found?: T | undefined;
}

/** A write whose rows each pay a debit (Debits.paidWrites). */
export interface PaidWrite {
  /** The write of many rows, as executeMany runs it; its column form is required. */
  readonly statement: ManyStatement & { readonly columns: ColumnForm };
  /**
   * The column form's statement over `rows`, writing only while `paid` (a condition: the debit was accepted) holds:
   * `… SELECT * FROM ${rows} WHERE ${paid} …`.
   */
  readonly whenPaid: (rows: string, paid: string) => string;
  /**
   * For a write that returns rows (`… RETURNING`, no column named `balance`): the key (PaidWriteRow.key) of a returned
   * row, undefined for a row of nulls (nothing returned). Each returned row answers the first paid row of its key, in
   * arrival order, as the first of several deletes of one key would find it and the others would not.
   */
  readonly keyOfReturned?: (returned: Record<string, unknown>) => string | undefined;
}

/** One row of a paid statement and what it pays. */
export interface PaidRow {
  /** The id of the debited row (DebitStatements.table). */
  readonly owner: number;
  readonly amount: number;
  /** The statement's parameters for this row. */
  readonly row: readonly unknown[];
}

/** One row of a PaidWrite. */
export interface PaidWriteRow extends PaidRow {
  /** The row's identity in the written table: of several rows with one key, the last one paid for is written. */
  readonly key: string;
}

/** A refused debit: `balance` is the row's, or undefined when no row was found (deleted meanwhile). */
export function refusedDebit(balance: number | undefined): DebitOutcome {
  return balance === undefined ? { ok: false, reason: 'gone' } : { ok: false, reason: 'insufficient', balance };
}

/** The `durable` of a debit that is already committed (or wrote nothing). */
export const ALREADY_DURABLE: Promise<void> = Promise.resolve();
