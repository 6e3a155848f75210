import type { Store, WriterLane } from '../../store/store.js';
import { CHARGE, chargeWallet } from './wallet.queries.js';
import type { ChargeOutcome } from './wallet.queries.js';

interface PendingCharge {
  readonly cost: number;
  readonly resolve: (outcome: ChargeOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface WalletQueue {
  pending: PendingCharge[];
  running: boolean;
}

const COMMITTED = Promise.resolve();

/** SQLite: the charges of one wallet in the open group commit, beyond the first (which ran its UPDATE). */
interface HeldDebit {
  balance: number;
  debit: number;
  readonly durable: Promise<void>;
}

/**
 * The hot-path charge. On SQLite the first charge of a wallet in a group commit is the conditional
 * UPDATE; the following ones are checked against the balance it returned and added up in memory,
 * then written as one more UPDATE before anything else reads or writes wallets and before the COMMIT
 * (see WriterLane.hold): the same outcome as one UPDATE each, at a fraction of the cost. On PostgreSQL
 * every charge of one wallet is a row lock held until its commit, so one busy wallet would be limited
 * to one commit per charge; instead the charges of a wallet that arrive while its previous batch
 * commits are settled together: one row lock, one UPDATE, one commit, each charge accepted in arrival
 * order while the balance covers it. Several instances stay exact because the batch holds the row lock.
 */
export class WalletCharger {
  private readonly queues = new Map<number, WalletQueue>();
  private readonly held = new Map<number, HeldDebit>();

  constructor(private readonly store: Store) {}

  charge(walletId: number, cost: number): Promise<ChargeOutcome> {
    if (cost <= 0) return chargeWallet(this.store, walletId, cost);
    if (this.store.lane !== undefined) return this.chargeHeld(this.store.lane, walletId, cost);
    if (this.store.dialect !== 'postgres') return chargeWallet(this.store, walletId, cost);
    return new Promise<ChargeOutcome>((resolve, reject) => {
      let queue = this.queues.get(walletId);
      if (queue === undefined) {
        queue = { pending: [], running: false };
        this.queues.set(walletId, queue);
      }
      queue.pending.push({ cost, resolve, reject });
      if (!queue.running) void this.drain(walletId, queue);
    });
  }

  private chargeHeld(lane: WriterLane, walletId: number, cost: number): Promise<ChargeOutcome> {
    const held = this.held.get(walletId);
    if (held !== undefined) {
      if (held.balance < cost) return Promise.resolve({ ok: false, reason: 'insufficient', balance: held.balance });
      held.balance -= cost;
      held.debit += cost;
      return Promise.resolve({ ok: true, balance: held.balance, durable: held.durable });
    }
    const now = lane.runNow<{ balance: number }>(CHARGE, [cost, walletId]);
    const row = now?.rows[0];
    // A unit owns the connection, or the wallet cannot pay or is gone: the plain path tells which.
    if (now === undefined || row === undefined) return chargeWallet(this.store, walletId, cost);
    const debit: HeldDebit = { balance: row.balance, debit: 0, durable: now.durable };
    this.held.set(walletId, debit);
    lane.hold('wallets', (run) => {
      this.held.delete(walletId);
      if (debit.debit === 0) return;
      // Nothing else touched wallets since the first UPDATE, so this cannot miss; if it does, the group rolls back.
      if (run(CHARGE, [debit.debit, walletId]).length === 0) throw new Error(`held debit of wallet ${walletId} was not applied`);
    });
    return Promise.resolve({ ok: true, balance: row.balance, durable: now.durable });
  }

  private async drain(walletId: number, queue: WalletQueue): Promise<void> {
    queue.running = true;
    // Let the rest of this event-loop turn add to the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.pending.length > 0) {
      const batch = queue.pending;
      queue.pending = [];
      try {
        const outcomes = await this.settle(walletId, batch.map((charge) => charge.cost));
        batch.forEach((charge, i) => charge.resolve(outcomes[i] as ChargeOutcome));
      } catch (error) {
        for (const charge of batch) charge.reject(error);
      }
    }
    queue.running = false;
    this.queues.delete(walletId);
  }

  private settle(walletId: number, costs: readonly number[]): Promise<ChargeOutcome[]> {
    return this.store.write(async (tx) => {
      const row = await tx.get<{ balance: number }>('SELECT balance FROM wallets WHERE id = $1 FOR UPDATE', [walletId]);
      if (row === undefined) return costs.map((): ChargeOutcome => ({ ok: false, reason: 'gone' }));
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
        balanceAfter === undefined ? { ok: false, reason: 'insufficient', balance } : { ok: true, balance: balanceAfter, durable: COMMITTED },
      );
    });
  }
}
