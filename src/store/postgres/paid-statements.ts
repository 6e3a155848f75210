import type { ColumnForm, Store, Unit } from '../store.js';
import { KeyedBatchers } from '../../lib/batcher.js';
import { columnArrays } from '../intentions.js';
import { ALREADY_DURABLE, refusedDebit } from '../debits.js';
import type { DebitStatements, Paid, PaidRow, PaidWrite, PaidWriteRow } from '../debits.js';
import { isStoreUnavailable } from '../store-errors.js';
import { arrayLiterals, columnText, unnestRows } from './column-arrays.js';

/** A row's answer within its batch, or what failed its statement. */
type Settled<T> = Paid<T> | { readonly error: unknown };

/**
 * PostgreSQL: a call whose one statement pays for itself commits its debit in that statement. The rows of one owner
 * that arrive while its previous batch runs go together, as BatchedDebits' debits do: one statement debits the owner's
 * row by their sum and, only if that was accepted, does their work (`WITH paid AS (UPDATE … RETURNING balance), … WHERE
 * EXISTS (SELECT FROM paid)`). The row lock comes first, so batches of several instances cannot deadlock. When the
 * balance does not cover the sum, the rows are accepted in arrival order under the row lock, as the plain debits are.
 */
abstract class PaidStatements<R extends PaidRow, T> {
  private readonly batchers = new KeyedBatchers<number, R, Settled<T>>((owner, rows) => this.settle(owner, rows));
  private readonly lockedBalance: string;

  constructor(
    private readonly store: Pick<Store, 'writeOne' | 'write'>,
    protected readonly statements: DebitStatements,
  ) {
    this.lockedBalance = `${statements.balance} FOR UPDATE`;
  }

  async submit(row: R): Promise<Paid<T>> {
    const settled = await this.batchers.submit(row.owner, row);
    if ('error' in settled) throw settled.error;
    return settled;
  }

  /** The statement over `rows` from parameter $3 on ($1 the debit's sum, $2 the owner): rows answering `found`'s columns and the balance. */
  protected abstract together(rows: readonly R[]): { readonly sql: string; readonly params: readonly unknown[] };
  /** What `together` answered each row, from its result (one row at least, since the debit was accepted). */
  protected abstract results(rows: readonly R[], answered: readonly Record<string, unknown>[]): (T | undefined)[];
  /** The work of the accepted rows, inside the unit that debited them. */
  protected abstract inUnit(tx: Unit, rows: readonly R[]): Promise<(T | undefined)[]>;

  private async settle(owner: number, rows: readonly R[]): Promise<Settled<T>[]> {
    try {
      return await this.settleTogether(owner, rows);
    } catch (error) {
      // One row the statement refuses must not fail the others: each is tried alone (a failed statement took nothing).
      if (rows.length === 1 || isStoreUnavailable(error)) return rows.map(() => ({ error }));
      const settled: Settled<T>[] = [];
      for (const row of rows) {
        settled.push(
          await this.settleTogether(owner, [row]).then(
            ([alone]) => alone as Settled<T>,
            (failure: unknown) => ({ error: failure }),
          ),
        );
      }
      return settled;
    }
  }

  private async settleTogether(owner: number, rows: readonly R[]): Promise<Paid<T>[]> {
    const total = rows.reduce((sum, row) => sum + row.amount, 0);
    const { sql, params } = this.together(rows);
    const answered = await this.store.writeOne<Record<string, unknown> & { balance: number }>(sql, [
      total,
      owner,
      ...params,
    ]);
    const first = answered[0];
    if (first === undefined) return this.settleOneByOne(owner, rows);
    let balance = first.balance + total;
    const results = this.results(rows, answered);
    return rows.map((row, i) => {
      balance -= row.amount;
      return { outcome: { ok: true, balance, durable: ALREADY_DURABLE }, found: results[i] };
    });
  }

  /** The balance does not cover every row (or the owner is gone): accepted in arrival order under the row lock. */
  private settleOneByOne(owner: number, rows: readonly R[]): Promise<Paid<T>[]> {
    return this.store.write(async (tx) => {
      const locked = await tx.get<{ balance: number }>(this.lockedBalance, [owner]);
      if (locked === undefined) return rows.map(() => ({ outcome: refusedDebit(undefined) }));
      let balance = locked.balance;
      let total = 0;
      const accepted: R[] = [];
      const after = rows.map((row) => {
        if (balance < row.amount) return undefined;
        balance -= row.amount;
        total += row.amount;
        accepted.push(row);
        return balance;
      });
      let results: (T | undefined)[] = [];
      if (total > 0) {
        await tx.run(this.statements.debit, [total, owner]);
        results = await this.inUnit(tx, accepted);
      }
      let next = 0;
      return after.map((balanceAfter): Paid<T> => {
        if (balanceAfter === undefined) return { outcome: refusedDebit(balance) };
        return { outcome: { ok: true, balance: balanceAfter, durable: ALREADY_DURABLE }, found: results[next++] };
      });
    });
  }
}

/**
 * A write that pays for itself: without it a paid `POST /kv` waits for two WAL flushes in turn (its charge's batch,
 * then its set's); with it, one. The written rows follow the debit in key order, the last row of a key winning; what
 * the write returns (PaidWrite.keyOfReturned) answers the first paid row of its key.
 */
export class PaidWrites<T> extends PaidStatements<PaidWriteRow, T> {
  private readonly sql: string;

  constructor(
    store: Pick<Store, 'writeOne' | 'write'>,
    statements: DebitStatements,
    private readonly write: PaidWrite,
  ) {
    super(store, statements);
    const answer =
      write.keyOfReturned === undefined
        ? 'SELECT balance FROM paid'
        : 'SELECT paid.balance, written.* FROM paid LEFT JOIN written ON true';
    this.sql = `WITH paid AS (${statements.debit}),
written AS (${write.whenPaid(unnestRows(write.statement.columns.types, 3), 'EXISTS (SELECT FROM paid)')})
${answer}`;
  }

  protected together(rows: readonly PaidWriteRow[]) {
    return {
      sql: this.sql,
      params: arrayLiterals(columnArrays(lastOfEachKey(rows)), this.write.statement.columns.types),
    };
  }

  protected results(rows: readonly PaidWriteRow[], answered: readonly Record<string, unknown>[]): (T | undefined)[] {
    const keyOf = this.write.keyOfReturned;
    if (keyOf === undefined) return rows.map(() => undefined);
    const returned = new Map<string, T>();
    for (const row of answered) {
      const key = keyOf(row);
      if (key !== undefined) returned.set(key, row as T);
    }
    return rows.map((row) => {
      const found = returned.get(row.key);
      returned.delete(row.key);
      return found;
    });
  }

  protected async inUnit(tx: Unit, rows: readonly PaidWriteRow[]): Promise<(T | undefined)[]> {
    return this.results(rows, await tx.executeMany<Record<string, unknown>>(this.write.statement, lastOfEachKey(rows)));
  }
}

/**
 * A read that pays for itself: the debit and the read, one statement instead of one each. `read` selects `i`, each
 * wanted row's 1-based position (WITH ORDINALITY), with what it reads; a wanted row it does not find is undefined.
 * `syncLater`: the debit commits without waiting for the WAL flush (a read-only call's charge, see WriteOptions).
 */
export class PaidReads<T> extends PaidStatements<PaidRow, T> {
  private readonly sql: string;

  constructor(
    store: Pick<Store, 'writeOne' | 'write'>,
    statements: DebitStatements,
    private readonly read: ColumnForm,
    debit: string,
  ) {
    super(store, statements);
    this.sql = `WITH paid AS (${debit}),
found AS (${read.sql(unnestRows(read.types, 3))})
SELECT paid.balance, found.* FROM paid LEFT JOIN found ON true`;
  }

  protected together(rows: readonly PaidRow[]) {
    return { sql: this.sql, params: arrayLiterals(columnArrays(rows.map((row) => row.row)), this.read.types) };
  }

  protected results(rows: readonly PaidRow[], answered: readonly Record<string, unknown>[]): (T | undefined)[] {
    const found: (T | undefined)[] = rows.map(() => undefined);
    for (const row of answered) if (typeof row.i === 'number') found[row.i - 1] = row as T;
    return found;
  }

  protected async inUnit(tx: Unit, rows: readonly PaidRow[]): Promise<(T | undefined)[]> {
    const answered = await tx.all<Record<string, unknown>>(
      columnText(this.read),
      arrayLiterals(columnArrays(rows.map((row) => row.row)), this.read.types),
    );
    return this.results(rows, answered);
  }
}

/** The last row of each key, in key order: one lock order for every batch, and no row written twice by one statement. */
function lastOfEachKey(rows: readonly PaidWriteRow[]): (readonly unknown[])[] {
  const latest = new Map<string, readonly unknown[]>();
  for (const row of rows) latest.set(row.key, row.row);
  return [...latest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
