import type { Store } from '../../store/store.js';
import { BatchedCharges } from './batched-charges.js';
import { HeldCharges } from './held-charges.js';
import { chargeWallet } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

/**
 * The hot-path charge, one strategy per engine: merged in memory within a group commit on SQLite
 * (HeldCharges), batched under the wallet's row lock on PostgreSQL (BatchedCharges). Both give the
 * outcome of charging one by one; a zero cost only reads the balance.
 */
export class WalletCharger {
  private readonly strategy: { charge(walletId: number, cost: number): Promise<ChargeOutcome> } | undefined;

  constructor(private readonly store: Store) {
    if (store.lane !== undefined) this.strategy = new HeldCharges(store, store.lane);
    else if (store.dialect === 'postgres') this.strategy = new BatchedCharges(store);
  }

  charge(walletId: number, cost: number): Promise<ChargeOutcome> {
    if (cost <= 0 || this.strategy === undefined) return chargeWallet(this.store, walletId, cost);
    return this.strategy.charge(walletId, cost);
  }
}
