import type { Store, WriterLane } from '../store.js';
import { refusedDebit } from '../debits.js';
import type { DebitOutcome, Debits, DebitStatements } from '../debits.js';

const KEEP_HELD = { keepHeld: true } as const;
const KEEP_HELD_SYNC_LATER = { keepHeld: true, syncLater: true } as const;
const SYNC_LATER = { syncLater: true } as const;

/** The debits of one row in the open group commit, beyond the first (which ran its UPDATE). */
interface HeldDebit {
  balance: number;
  debit: number;
}

/**
 * SQLite: the first debit of a row in a group commit is the conditional UPDATE; the following
 * ones are checked against the balance it returned and added up in memory, then written as one more
 * UPDATE before anything else reads or writes the table and before the COMMIT (see WriterLane.hold):
 * the same outcome as one UPDATE each, at a fraction of the cost.
 */
export class HeldDebits implements Debits {
  private readonly held = new Map<number, HeldDebit>();

  /** `store`: the path taken while a unit owns the connection (the store as the caller sees it, traced or not). */
  constructor(
    private readonly store: Store,
    private readonly lane: WriterLane,
    private readonly statements: DebitStatements,
  ) {}

  /** `syncLater`: a read-only call's charge, answered once committed (see WriteOptions.syncLater). */
  debit(id: number, amount: number, syncLater: boolean): DebitOutcome | Promise<DebitOutcome> {
    const held = this.held.get(id);
    if (held !== undefined) {
      if (held.balance < amount) return refusedDebit(held.balance);
      held.balance -= amount;
      held.debit += amount;
      // A held debit lives in the open group (it is applied before its COMMIT), so this debit commits with it.
      return { ok: true, balance: held.balance, durable: this.lane.groupSettled(syncLater) };
    }
    const { debit, balance, table } = this.statements;
    // This row holds nothing (checked above) and the debit touches only its row: other rows' debits stay held.
    const now = this.lane.runNow<{ balance: number }>(
      debit,
      [amount, id],
      syncLater ? KEEP_HELD_SYNC_LATER : KEEP_HELD,
    );
    // A unit owns the connection: the plain path.
    if (now === undefined) return this.deferredDebit(id, amount, syncLater);
    const row = now.rows[0];
    if (row === undefined) {
      // A read: nothing waits for its commit.
      const current = this.lane.runNow<{ balance: number }>(balance, [id], KEEP_HELD_SYNC_LATER)?.rows[0];
      return refusedDebit(current?.balance);
    }
    const entry: HeldDebit = { balance: row.balance, debit: 0 };
    this.held.set(id, entry);
    this.lane.hold(table, (run) => {
      this.held.delete(id);
      if (entry.debit === 0) return;
      // Nothing else touched the table since the first UPDATE, so this cannot miss; if it does, the group rolls back.
      if (run(debit, [entry.debit, id]).length === 0)
        throw new Error(`held debit of ${table} row ${id} was not applied`);
    });
    return { ok: true, balance: row.balance, durable: now.durable };
  }

  /** The debit through the write path; a refusal reads the balance there too, so it includes debits not yet committed. */
  private async deferredDebit(id: number, amount: number, syncLater: boolean): Promise<DebitOutcome> {
    const { rows, durable } = await this.store.writeDeferred<{ balance: number }>(
      this.statements.debit,
      [amount, id],
      syncLater ? SYNC_LATER : undefined,
    );
    const [row] = rows;
    if (row !== undefined) return { ok: true, balance: row.balance, durable };
    const current = await this.store.writeDeferred<{ balance: number }>(this.statements.balance, [id], SYNC_LATER);
    return refusedDebit(current.rows[0]?.balance);
  }
}
