import type { Store } from '../store.js';
import { KeyedBatchers } from '../../lib/batcher.js';
import { ALREADY_DURABLE, refusedDebit } from '../debits.js';
import type { ColumnForm } from '../store.js';
import type { DebitOutcome, Debits, DebitStatements, Paid, PaidRow, PaidWrite, PaidWriteRow } from '../debits.js';
import { syncLaterUpdate } from './sync-later.js';
import { PaidReads, PaidWrites } from './paid-statements.js';

interface Debit {
  readonly amount: number;
  /** A read-only call's charge (see WriteOptions.syncLater). */
  readonly syncLater: boolean;
}

/**
 * PostgreSQL: every debit of one row is a row lock held until its commit, so one busy row would be
 * limited to one commit per debit; instead the debits of a row that arrive while its previous
 * batch commits are settled together: one row lock, one UPDATE, one commit, each debit accepted in
 * arrival order while the balance covers it. Several instances stay exact because the batch's UPDATE holds the row lock.
 */
export class BatchedDebits implements Debits {
  private readonly batchers = new KeyedBatchers<number, Debit, DebitOutcome>((id, debits) => this.settle(id, debits));
  /**
   * The debit with the server told not to wait for the WAL flush at its commit (`synchronous_commit = off` for this
   * transaction only): set by the statement itself, so it costs no round trip. The commit is flushed by the WAL writer
   * within `wal_writer_delay` (docs/reference.md#durability-of-read-charges).
   */
  readonly debitSyncLater: string;
  private readonly lockedBalance: string;

  /** `store`: the store as the caller sees it (traced or not), which runs the statements. */
  constructor(
    private readonly store: Pick<Store, 'writeOne' | 'write'>,
    private readonly statements: DebitStatements,
  ) {
    this.debitSyncLater = syncLaterUpdate(statements.debit);
    this.lockedBalance = `${statements.balance} FOR UPDATE`;
  }

  debit(id: number, amount: number, syncLater: boolean): Promise<DebitOutcome> {
    return this.batchers.submit(id, { amount, syncLater });
  }

  /** A write's debit in the write's own statement: one commit, one WAL flush for both (see PaidWrites). */
  paidWrites<T>(write: PaidWrite): (row: PaidWriteRow) => Promise<Paid<T>> {
    const writes = new PaidWrites<T>(this.store, this.statements, write);
    return (row) => writes.submit(row);
  }

  /** A read's debit in the read's own statement: one round trip for both (see PaidReads). */
  paidReads<T>(read: ColumnForm, syncLater: boolean): (row: PaidRow) => Promise<Paid<T>> {
    const reads = new PaidReads<T>(
      this.store,
      this.statements,
      read,
      syncLater ? this.debitSyncLater : this.statements.debit,
    );
    return (row) => reads.submit(row);
  }

  private async settle(id: number, debits: readonly Debit[]): Promise<DebitOutcome[]> {
    const amounts = debits.map((debit) => debit.amount);
    // The common case, the balance covers the whole batch: one statement, one round trip. Its commit waits for the
    // WAL flush unless every debit in it is a read's: one debit of user data or money makes the batch durable. Not
    // later, by the flush of the call's own write: should the database go away between the two, the charge's fate
    // would be unknown when the 503 says what it cost (measured and refused, bench/RESULTS.md "twenty-first session").
    // A write that can carry its charge does better: both in one statement (paidWrites).
    const total = amounts.reduce((sum, amount) => sum + amount, 0);
    const statement = debits.every((debit) => debit.syncLater) ? this.debitSyncLater : this.statements.debit;
    const [row] = await this.store.writeOne<{ balance: number }>(statement, [total, id]);
    if (row === undefined) return this.settleOneByOne(id, amounts);
    let balance = row.balance + total;
    return amounts.map((amount): DebitOutcome => {
      balance -= amount;
      return { ok: true, balance, durable: ALREADY_DURABLE };
    });
  }

  /** The balance does not cover every debit (or the row is gone): accept them in arrival order under the row lock. */
  private settleOneByOne(id: number, amounts: readonly number[]): Promise<DebitOutcome[]> {
    return this.store.write(async (tx) => {
      const row = await tx.get<{ balance: number }>(this.lockedBalance, [id]);
      if (row === undefined) return amounts.map(() => refusedDebit(undefined));
      let balance = row.balance;
      let total = 0;
      const after = amounts.map((amount) => {
        if (balance < amount) return undefined;
        balance -= amount;
        total += amount;
        return balance;
      });
      // The one debit statement does whatever else a debit does (it must merge, see DebitStatements.debit).
      if (total > 0) await tx.run(this.statements.debit, [total, id]);
      return after.map((balanceAfter): DebitOutcome =>
        balanceAfter === undefined
          ? refusedDebit(balance)
          : { ok: true, balance: balanceAfter, durable: ALREADY_DURABLE },
      );
    });
  }
}
