import type { Store } from '../store.js';
import { Batcher } from '../../lib/batcher.js';
import { columnArrays } from '../intentions.js';
import { ALREADY_DURABLE, refusedDebit } from '../debits.js';
import type { DebitOutcome, DebitStatements, PaidRow, PaidWrite } from '../debits.js';
import { isStoreUnavailable } from '../store-errors.js';
import { arrayLiterals, unnestRows } from './column-arrays.js';

/** A row's answer within its batch: the debit's outcome, or what failed its write. */
type Settled = { readonly outcome: DebitOutcome } | { readonly error: unknown };

/**
 * PostgreSQL: a write that pays for itself commits its debit in the same statement. Without it a paid `POST /kv` waits
 * for two WAL flushes in turn (its charge's batch, then its set's); with it, one. The rows of one owner that arrive
 * while its previous batch runs go together, as BatchedDebits' debits do: one statement debits the owner's row by their
 * sum and, only if that was accepted, writes them (`WITH paid AS (UPDATE … RETURNING balance), written AS (INSERT …
 * WHERE EXISTS (SELECT FROM paid)) SELECT balance FROM paid`). The row lock is taken first, the written rows in key
 * order after it, so batches of several instances cannot deadlock. When the balance does not cover the sum, the rows
 * are accepted in arrival order under the row lock, as the plain debits are.
 */
export class PaidWrites {
  private readonly batchers = new Map<number, Batcher<PaidRow, Settled>>();
  private readonly together: string;
  private readonly lockedBalance: string;

  constructor(
    private readonly store: Pick<Store, 'writeOne' | 'write'>,
    private readonly statements: DebitStatements,
    private readonly write: PaidWrite,
  ) {
    // The debit binds $1 (the sum) and $2 (the owner); the written columns follow from $3.
    const rows = unnestRows(write.statement.columns.types, 3);
    this.together = `WITH paid AS (${statements.debit}),
written AS (${write.whenPaid(rows, 'EXISTS (SELECT FROM paid)')})
SELECT balance FROM paid`;
    this.lockedBalance = `${statements.balance} FOR UPDATE`;
  }

  async submit(row: PaidRow): Promise<DebitOutcome> {
    let batcher = this.batchers.get(row.owner);
    if (batcher === undefined) {
      batcher = new Batcher(
        (rows) => this.settle(row.owner, rows),
        () => this.batchers.delete(row.owner),
      );
      this.batchers.set(row.owner, batcher);
    }
    const settled = await batcher.submit(row);
    if ('error' in settled) throw settled.error;
    return settled.outcome;
  }

  private async settle(owner: number, rows: readonly PaidRow[]): Promise<Settled[]> {
    try {
      return (await this.settleTogether(owner, rows)).map((outcome) => ({ outcome }));
    } catch (error) {
      // One row the write refuses must not fail the others: each is tried alone (a failed statement took nothing).
      if (rows.length === 1 || isStoreUnavailable(error)) return rows.map(() => ({ error }));
      const settled: Settled[] = [];
      for (const row of rows)
        settled.push(
          await this.settleTogether(owner, [row]).then(
            ([outcome]) => ({ outcome: outcome as DebitOutcome }),
            (failure: unknown) => ({ error: failure }),
          ),
        );
      return settled;
    }
  }

  private async settleTogether(owner: number, rows: readonly PaidRow[]): Promise<DebitOutcome[]> {
    const total = rows.reduce((sum, row) => sum + row.amount, 0);
    const [paid] = await this.store.writeOne<{ balance: number }>(this.together, [total, owner, ...this.columns(rows)]);
    if (paid === undefined) return this.settleOneByOne(owner, rows);
    let balance = paid.balance + total;
    return rows.map((row): DebitOutcome => {
      balance -= row.amount;
      return { ok: true, balance, durable: ALREADY_DURABLE };
    });
  }

  /** The balance does not cover every row (or the owner is gone): accepted in arrival order under the row lock. */
  private settleOneByOne(owner: number, rows: readonly PaidRow[]): Promise<DebitOutcome[]> {
    return this.store.write(async (tx) => {
      const locked = await tx.get<{ balance: number }>(this.lockedBalance, [owner]);
      if (locked === undefined) return rows.map(() => refusedDebit(undefined));
      let balance = locked.balance;
      let total = 0;
      const accepted: PaidRow[] = [];
      const after = rows.map((row) => {
        if (balance < row.amount) return undefined;
        balance -= row.amount;
        total += row.amount;
        accepted.push(row);
        return balance;
      });
      if (total > 0) {
        await tx.run(this.statements.debit, [total, owner]);
        await tx.executeMany(this.write.statement, this.lastOfEachKey(accepted));
      }
      return after.map((balanceAfter): DebitOutcome =>
        balanceAfter === undefined
          ? refusedDebit(balance)
          : { ok: true, balance: balanceAfter, durable: ALREADY_DURABLE },
      );
    });
  }

  private columns(rows: readonly PaidRow[]): unknown[] {
    return arrayLiterals(columnArrays(this.lastOfEachKey(rows)), this.write.statement.columns.types);
  }

  /** The last row of each key, in key order: one lock order for every batch, and no row written twice by one statement. */
  private lastOfEachKey(rows: readonly PaidRow[]): (readonly unknown[])[] {
    const latest = new Map<string, readonly unknown[]>();
    for (const row of rows) latest.set(row.key, row.row);
    return [...latest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  }
}
