import type { Store } from '../store/store.js';
import { Batcher } from '../lib/batcher.js';
import { ALREADY_DURABLE, CHARGE, refusedCharge } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

/**
 * PostgreSQL: every charge of one wallet is a row lock held until its commit, so one busy wallet would
 * be limited to one commit per charge; instead the charges of a wallet that arrive while its previous
 * batch commits are settled together: one row lock, one UPDATE, one commit, each charge accepted in
 * arrival order while the balance covers it. Several instances stay exact because the batch's UPDATE holds the row lock.
 */
export class BatchedCharges {
  private readonly batchers = new Map<number, Batcher<number, ChargeOutcome>>();

  constructor(private readonly store: Store) {}

  charge(walletId: number, cost: number): Promise<ChargeOutcome> {
    let batcher = this.batchers.get(walletId);
    if (batcher === undefined) {
      batcher = new Batcher(
        (costs) => this.settle(walletId, costs),
        () => this.batchers.delete(walletId),
      );
      this.batchers.set(walletId, batcher);
    }
    return batcher.submit(cost);
  }

  private async settle(walletId: number, costs: readonly number[]): Promise<ChargeOutcome[]> {
    // The common case, the balance covers the whole batch: one statement, one round trip.
    const total = costs.reduce((sum, cost) => sum + cost, 0);
    const [row] = await this.store.writeOne<{ balance: number }>(CHARGE, [total, walletId]);
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
