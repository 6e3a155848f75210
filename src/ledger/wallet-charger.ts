import type { ColumnForm, Store } from '../store/store.js';
import type { Debits, Paid, PaidRow, PaidWrite, PaidWriteRow } from '../store/debits.js';
import { WALLET_DEBITS, zeroCharge } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

/** READ_CHARGES: whether read-only calls' charges are answered once committed (`deferred`) or once durable. */
export type ReadCharges = 'deferred' | 'durable';

/**
 * The hot-path charge: the store's debits of wallets (Store.debits), which each engine runs its fastest way and which
 * give the outcome of charging one by one; a zero cost only reads the balance. The outcome comes back as it is when it
 * is known at once (SQLite's common case), so the hot path allocates no promise for it.
 */
export class WalletCharger {
  private readonly debits: Debits;
  private readonly deferReads: boolean;

  /** `readCharges`: READ_CHARGES; `durable` makes read-only calls' charges wait for their fsync as every other. */
  constructor(
    private readonly store: Store,
    readCharges: ReadCharges = 'deferred',
  ) {
    this.debits = store.debits(WALLET_DEBITS);
    this.deferReads = readCharges === 'deferred';
  }

  /** `readOnly`: the call writes nothing of the user's, so its charge may be answered once committed (docs/reference.md#durability-of-read-charges). */
  charge(walletId: number, cost: number, readOnly = false): ChargeOutcome | Promise<ChargeOutcome> {
    if (cost <= 0) return zeroCharge(this.store, walletId);
    return this.debits.debit(walletId, cost, readOnly && this.deferReads);
  }

  /** Whether a statement can carry its own charge here (Debits.paidWrites, paidReads): where it can, metering leaves the charge to it. */
  get paysInStatements(): boolean {
    return this.debits.paidWrites !== undefined && this.debits.paidReads !== undefined;
  }

  /** The writer of `write`'s rows, each charging its wallet (PaidRow.owner) in the write's commit; undefined where paysInStatements is false. */
  paidWrites<T>(write: PaidWrite): ((row: PaidWriteRow) => Promise<Paid<T>>) | undefined {
    return this.debits.paidWrites?.<T>(write);
  }

  /** The reader of `read`'s rows, each charging its wallet in the read's statement (a read-only call's charge); as paidWrites. */
  paidReads<T>(read: ColumnForm): ((row: PaidRow) => Promise<Paid<T>>) | undefined {
    return this.debits.paidReads?.<T>(read, this.deferReads);
  }
}
