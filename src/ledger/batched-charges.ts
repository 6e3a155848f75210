import type { Store } from '../store/store.js';
import { Batcher } from '../lib/batcher.js';
import { POSTGRES_SYNC_LATER } from '../store/intentions.js';
import { ALREADY_DURABLE, CHARGE, refusedCharge } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

/**
 * CHARGE with the server told not to wait for the WAL flush at its commit (`synchronous_commit = off` for this
 * transaction only): set by the statement itself, in its own implicit transaction, so it costs no round trip. The
 * commit is flushed by the WAL writer within `wal_writer_delay` (docs/reference.md#durability-of-read-charges).
 */
export const CHARGE_SYNC_LATER = CHARGE.replace('\nWHERE id = $2', () => `\nFROM (SELECT ${POSTGRES_SYNC_LATER}) AS sync_later\nWHERE id = $2`);

interface Charge {
  readonly cost: number;
  /** A read-only call's charge (see WriteOptions.syncLater). */
  readonly syncLater: boolean;
}

/**
 * PostgreSQL: every charge of one wallet is a row lock held until its commit, so one busy wallet would
 * be limited to one commit per charge; instead the charges of a wallet that arrive while its previous
 * batch commits are settled together: one row lock, one UPDATE, one commit, each charge accepted in
 * arrival order while the balance covers it. Several instances stay exact because the batch's UPDATE holds the row lock.
 */
export class BatchedCharges {
  private readonly batchers = new Map<number, Batcher<Charge, ChargeOutcome>>();

  constructor(private readonly store: Store) {}

  charge(walletId: number, cost: number, syncLater: boolean): Promise<ChargeOutcome> {
    let batcher = this.batchers.get(walletId);
    if (batcher === undefined) {
      batcher = new Batcher(
        (charges) => this.settle(walletId, charges),
        () => this.batchers.delete(walletId),
      );
      this.batchers.set(walletId, batcher);
    }
    return batcher.submit({ cost, syncLater });
  }

  private async settle(walletId: number, charges: readonly Charge[]): Promise<ChargeOutcome[]> {
    const costs = charges.map((charge) => charge.cost);
    // The common case, the balance covers the whole batch: one statement, one round trip. Its commit waits for the
    // WAL flush unless every charge in it is a read's: one charge of user data or money makes the batch durable.
    const total = costs.reduce((sum, cost) => sum + cost, 0);
    const statement = charges.every((charge) => charge.syncLater) ? CHARGE_SYNC_LATER : CHARGE;
    const [row] = await this.store.writeOne<{ balance: number }>(statement, [total, walletId]);
    if (row === undefined) return this.settleOneByOne(walletId, costs);
    let balance = row.balance + total;
    return costs.map((cost): ChargeOutcome => {
      balance -= cost;
      return { ok: true, balance, durable: ALREADY_DURABLE };
    });
  }

  /** The balance does not cover every charge (or the wallet is gone): accept them in arrival order under the row lock. */
  private settleOneByOne(walletId: number, costs: readonly number[]): Promise<ChargeOutcome[]> {
    return this.store.write(async (tx) => {
      const row = await tx.get<{ balance: number }>('SELECT balance FROM wallets WHERE id = $1 FOR UPDATE', [walletId]);
      if (row === undefined) return costs.map(() => refusedCharge(undefined));
      let balance = row.balance;
      let total = 0;
      const after = costs.map((cost) => {
        if (balance < cost) return undefined;
        balance -= cost;
        total += cost;
        return balance;
      });
      // The shared CHARGE statement also raises the low-balance flag: balances only fall within a batch,
      // so crossing the threshold anywhere in it is the same as ending at or below it.
      if (total > 0) await tx.run(CHARGE, [total, walletId]);
      return after.map((balanceAfter): ChargeOutcome =>
        balanceAfter === undefined ? refusedCharge(balance) : { ok: true, balance: balanceAfter, durable: ALREADY_DURABLE },
      );
    });
  }
}
