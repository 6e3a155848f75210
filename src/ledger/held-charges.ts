import type { Store, WriterLane } from '../store/store.js';
import { BALANCE, CHARGE, chargeWallet, refusedCharge } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

const KEEP_HELD = { keepHeld: true } as const;
const KEEP_HELD_SYNC_LATER = { keepHeld: true, syncLater: true } as const;

/** The charges of one wallet in the open group commit, beyond the first (which ran its UPDATE). */
interface HeldDebit {
  balance: number;
  debit: number;
}

/**
 * SQLite: the first charge of a wallet in a group commit is the conditional UPDATE; the following
 * ones are checked against the balance it returned and added up in memory, then written as one more
 * UPDATE before anything else reads or writes wallets and before the COMMIT (see WriterLane.hold):
 * the same outcome as one UPDATE each, at a fraction of the cost.
 */
export class HeldCharges {
  private readonly held = new Map<number, HeldDebit>();

  constructor(
    private readonly store: Store,
    private readonly lane: WriterLane,
  ) {}

  /** `syncLater`: a read-only call's charge, answered once committed (see WriteOptions.syncLater). */
  charge(walletId: number, cost: number, syncLater: boolean): ChargeOutcome | Promise<ChargeOutcome> {
    const held = this.held.get(walletId);
    if (held !== undefined) {
      if (held.balance < cost) return refusedCharge(held.balance);
      held.balance -= cost;
      held.debit += cost;
      // A held debit lives in the open group (it is applied before its COMMIT), so this charge commits with it.
      return { ok: true, balance: held.balance, durable: this.lane.groupSettled(syncLater) };
    }
    // This wallet holds nothing (checked above) and CHARGE touches only its row: other wallets' debits stay held.
    const now = this.lane.runNow<{ balance: number }>(CHARGE, [cost, walletId], syncLater ? KEEP_HELD_SYNC_LATER : KEEP_HELD);
    // A unit owns the connection: the plain path.
    if (now === undefined) return chargeWallet(this.store, walletId, cost, syncLater);
    const row = now.rows[0];
    if (row === undefined) {
      // A read: nothing waits for its commit.
      const current = this.lane.runNow<{ balance: number }>(BALANCE, [walletId], KEEP_HELD_SYNC_LATER)?.rows[0];
      return refusedCharge(current?.balance);
    }
    const debit: HeldDebit = { balance: row.balance, debit: 0 };
    this.held.set(walletId, debit);
    this.lane.hold('wallets', (run) => {
      this.held.delete(walletId);
      if (debit.debit === 0) return;
      // Nothing else touched wallets since the first UPDATE, so this cannot miss; if it does, the group rolls back.
      if (run(CHARGE, [debit.debit, walletId]).length === 0) throw new Error(`held debit of wallet ${walletId} was not applied`);
    });
    return { ok: true, balance: row.balance, durable: now.durable };
  }
}
