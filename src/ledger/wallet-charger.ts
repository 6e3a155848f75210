import type { Store } from '../store/store.js';
import { BatchedCharges } from './batched-charges.js';
import { HeldCharges } from './held-charges.js';
import { chargeWallet } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

/** READ_CHARGES: whether read-only calls' charges are answered once committed (`deferred`) or once durable. */
export type ReadCharges = 'deferred' | 'durable';

/**
 * The hot-path charge, one strategy per engine: merged in memory within a group commit on SQLite
 * (HeldCharges), batched under the wallet's row lock on PostgreSQL (BatchedCharges). Both give the
 * outcome of charging one by one; a zero cost only reads the balance. The outcome comes back as it is
 * when it is known at once (SQLite's common case), so the hot path allocates no promise for it.
 */
export class WalletCharger {
  private readonly strategy: { charge(walletId: number, cost: number, syncLater: boolean): ChargeOutcome | Promise<ChargeOutcome> };
  private readonly deferReads: boolean;

  /** `readCharges`: READ_CHARGES; `durable` makes read-only calls' charges wait for their fsync as every other. */
  constructor(
    private readonly store: Store,
    readCharges: ReadCharges = 'deferred',
  ) {
    // Only the SQLite store has a writer lane; PostgreSQL is the other engine.
    this.strategy = store.lane !== undefined ? new HeldCharges(store, store.lane) : new BatchedCharges(store);
    this.deferReads = readCharges === 'deferred';
  }

  /** `readOnly`: the call writes nothing of the user's, so its charge may be answered once committed (docs/reference.md#durability-of-read-charges). */
  charge(walletId: number, cost: number, readOnly = false): ChargeOutcome | Promise<ChargeOutcome> {
    if (cost <= 0) return chargeWallet(this.store, walletId, cost);
    return this.strategy.charge(walletId, cost, readOnly && this.deferReads);
  }
}
