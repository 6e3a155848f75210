import type { Sql } from '../store/store.js';
import { logId } from '../lib/ids.js';
import { MINUTE } from '../lib/time.js';
import type { FairLimiter } from '../lib/fair-limiter.js';
import { OutageLog } from '../jobs/outage-log.js';
import { PendingWrites } from '../jobs/pending-writes.js';
import { isStoreUnavailable } from '../store/store-errors.js';
import { deliver } from './deliver.js';
import type { DeliveryPorts } from './deliver.js';
import { JsonText } from './delivery.js';
import type { DeliveryTarget } from './delivery.js';
import { claimOutbox, deleteOutbox, findStaleOutbox, insertOutbox, outboxEntryWaits } from './outbox.queries.js';
import type { OutboxEntry } from './outbox.queries.js';

/**
 * Carries out recorded deliveries (the outbox: inbound mail's, recorded in the unit that charged them) in a pool
 * of slots, each wallet within its share (a wallet whose receivers are slow waits for itself, not for others),
 * each entry deleted after its one attempt (no retry, docs/contract.md#deliveries, rule 2, unless the webhook opted
 * into retries: then deliver.ts keeps the delivery pending). Entries recorded here start at once with their body in
 * memory when their wallet has room; otherwise only their id waits, and the body is read back when the wallet's turn
 * comes (memory stays bounded whatever the receivers' speed). Entries whose claim ran out (their instance died) are
 * taken over by `recover()`, compare-and-set on the claim.
 *
 * While the store is away: a delivery made meanwhile has its entry deleted once the store is back
 * (kept in memory, tried every second), so it is not taken over and sent again; an entry waiting for
 * a slot is tried again, and failures are one warning per outage.
 */

/** How long an outbox entry belongs to the instance that recorded or took it before others may. */
export const OUTBOX_CLAIM_MS = 5 * MINUTE;
/** How often stale outbox entries (an instance died before delivering them) are looked for. */
export const OUTBOX_RECOVERY_INTERVAL_MS = 30_000;

/** Where an entry's delivery goes now, how it is signed, and the retries its webhook allows. */
export type OutboxTarget = DeliveryTarget & { readonly retryAttempts?: number };

/**
 * The target of an entry taken back from the store: undefined when there is no one to deliver to any more (the
 * entry is then dropped). The feature that records entries answers (inbound mail: the webhook, still a mailbox).
 */
export type FindOutboxTarget = (walletId: number, webhookId: string) => Promise<OutboxTarget | undefined>;

/** An entry recorded by this instance, its target known: sent without reading it back. */
export interface ReadyDelivery {
  readonly entry: OutboxEntry;
  readonly target: OutboxTarget;
  readonly claimUntil: number;
}

interface WaitingRef {
  readonly id: string;
  readonly claimUntil: number;
  /** Whose share of the pool the delivery takes. */
  readonly walletId: number;
}

export interface DelivererOptions {
  /** The slots deliveries run in, keyed by wallet (deps.pools.mailDeliveries). */
  readonly pool: FairLimiter;
  /** The target of an entry read back (recovered, or waiting for a slot). */
  readonly findTarget: FindOutboxTarget;
  /** Default OUTBOX_CLAIM_MS. */
  readonly claimMs?: number;
  /** Default: no periodic recovery. */
  readonly recoveryIntervalMs?: number;
}

/**
 * Deliveries waiting for a slot (an id and a turn in the pool each, some hundreds of bytes, so a few MB at most);
 * beyond, entries are left to recovery once their claim runs out.
 */
const MAX_WAITING = 20_000;
/** An entry whose claim met the store away is tried again after this long. */
const RETRY_AFTER_OUTAGE_MS = 1000;

export class OutboxDeliverer {
  /** Deliveries running or waiting for a slot. */
  private pending = 0;
  /** Of those, waiting for a slot. */
  private waiting = 0;
  private readonly idleWaiters = new Set<() => void>();
  private readonly timer: NodeJS.Timeout | undefined;
  private recovering = false;
  private closed = false;
  private readonly outage: OutageLog;
  /** Deletions of delivered entries that met the store away. */
  private readonly deletions: PendingWrites;
  /** Entries whose claim met the store away, and the timer that queues them again. */
  private readonly parked: WaitingRef[] = [];
  private parkTimer: NodeJS.Timeout | undefined;

  private readonly claimMs: number;

  constructor(
    private readonly deps: DeliveryPorts,
    private readonly options: DelivererOptions,
  ) {
    this.claimMs = options.claimMs ?? OUTBOX_CLAIM_MS;
    this.outage = new OutageLog(deps.logger.child({ worker: 'inbound outbox' }));
    this.deletions = new PendingWrites(this.outage);
    if (options.recoveryIntervalMs !== undefined) {
      this.timer = setInterval(() => void this.recover(), options.recoveryIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Records a first attempt in the caller's unit of work (the one that charged it), claimed by this instance:
   * `push` the answer once that unit has committed.
   */
  async recordIn(tx: Sql, entry: Omit<OutboxEntry, 'id'>, target: OutboxTarget, now: number): Promise<ReadyDelivery> {
    const recorded: OutboxEntry = { id: logId(), ...entry };
    const claimUntil = now + this.claimMs;
    await insertOutbox(tx, recorded, now, claimUntil);
    return { entry: recorded, target, claimUntil };
  }

  /** Sends a recorded entry in its wallet's share of the pool (or leaves it to recovery once closed). */
  push(ready: ReadyDelivery): void {
    if (this.closed) return; // stays in the outbox; recovered once its claim runs out
    const { entry } = ready;
    if (this.options.pool.roomFor(entry.walletId) > 0) this.start(entry.walletId, () => this.send(ready));
    else if (this.waiting < MAX_WAITING)
      this.enqueueRef({ id: entry.id, claimUntil: ready.claimUntil, walletId: entry.walletId });
  }

  /** Takes over entries whose claim ran out; returns how many were queued. */
  async recover(): Promise<number> {
    if (this.recovering || this.closed) return 0;
    this.recovering = true;
    try {
      const room = this.options.pool.free - this.waiting;
      if (room <= 0) return 0;
      const stale = await findStaleOutbox(this.deps.store.read, this.deps.clock.now(), room);
      this.outage.answered();
      // Entries delivered here whose deletion waits for the store are done: never taken over.
      const undelivered = stale.filter((row) => !this.deletions.has(row.id));
      for (const row of undelivered)
        this.enqueueRef({ id: row.id, claimUntil: row.claim_until, walletId: row.wallet_id });
      return undelivered.length;
    } catch (error) {
      this.outage.report(error, 'inbound outbox recovery failed');
      return 0;
    } finally {
      this.recovering = false;
    }
  }

  /** Resolves once nothing is running or waiting. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** No new work; resolves when the deliveries in flight are done (waiting ones stay in the outbox). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.parkTimer !== undefined) clearTimeout(this.parkTimer);
    this.parked.length = 0;
    await this.idle();
    await this.deletions.close();
  }

  private enqueueRef(ref: WaitingRef): void {
    this.start(ref.walletId, () => this.sendRef(ref));
  }

  /** Runs `work` in the wallet's share of the pool; work still waiting when the deliverer closes is not started (it stays in the outbox). */
  private start(walletId: number, work: () => Promise<void>): void {
    this.pending += 1;
    const waits = this.options.pool.roomFor(walletId) === 0;
    if (waits) this.waiting += 1;
    this.options.pool
      .run(walletId, async () => {
        if (waits) this.waiting -= 1;
        if (!this.closed || !waits) await work();
      })
      .catch((error: unknown) => this.outage.report(error, 'inbound delivery failed'))
      .finally(() => {
        this.pending -= 1;
        if (this.pending === 0) {
          for (const wake of this.idleWaiters) wake();
          this.idleWaiters.clear();
        }
      });
  }

  private async sendRef(ref: WaitingRef): Promise<void> {
    const now = this.deps.clock.now();
    let entry;
    try {
      entry = await claimOutbox(this.deps.store, ref.id, ref.claimUntil, now + this.claimMs);
    } catch (error) {
      if (isStoreUnavailable(error)) this.park(ref);
      throw error;
    }
    this.outage.answered();
    if (entry === undefined) return; // delivered or taken by another instance
    let target;
    try {
      target = await this.options.findTarget(entry.walletId, entry.webhookId);
    } catch (error) {
      // Claimed (by us, until now + claimMs), nothing sent: tried again under that claim.
      if (isStoreUnavailable(error))
        this.park({ id: entry.id, claimUntil: now + this.claimMs, walletId: entry.walletId });
      throw error;
    }
    if (target === undefined) {
      await deleteOutbox(this.deps.store, entry.id); // nobody to deliver to any more
      return;
    }
    // Read after the target: a webhook deleted and created again under its id meanwhile took the entry out first.
    if (!(await outboxEntryWaits(this.deps.store.read, entry.id))) return;
    await this.send({ entry, target, claimUntil: now + this.claimMs });
  }

  private async send(ready: ReadyDelivery): Promise<void> {
    const { entry, target } = ready;
    try {
      await deliver(this.deps, {
        // The outbox holds inbound mail's first attempts only (its table has no trigger column).
        trigger: 'email',
        walletId: entry.walletId,
        webhookId: entry.webhookId,
        url: target.url,
        headers: target.headers,
        signingKeys: target.signingKeys,
        retryAttempts: target.retryAttempts,
        // The stored JSON is signed and sent as is: never parsed and serialised again.
        body: new JsonText(entry.body),
        cost: entry.cost,
        balance: entry.balance,
        // The entry's own: sent again after its instance stopped, it carries the same webhook-id.
        deliveryId: `msg_${entry.id}`,
      });
    } finally {
      // Kept and retried while the store is away: an entry left behind would be taken over and sent again.
      await this.deletions.run(
        entry.id,
        () => deleteOutbox(this.deps.store, entry.id),
        'deleting a delivered outbox entry failed',
      );
    }
  }

  /** Not claimed (the store was away; nothing was sent): queued again shortly, rather than left for recovery once its claim runs out. */
  private park(ref: WaitingRef): void {
    if (this.closed) return;
    this.parked.push(ref);
    this.parkTimer ??= setTimeout(() => {
      this.parkTimer = undefined;
      for (const parked of this.parked.splice(0)) this.enqueueRef(parked);
    }, RETRY_AFTER_OUTAGE_MS);
    this.parkTimer.unref();
  }
}
