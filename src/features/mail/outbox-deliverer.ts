import type { Deps } from '../../deps.js';
import { deliver, JsonText } from '../../delivery-core/index.js';
import { findWebhook, webhookSigner } from '../webhooks/index.js';
import type { WebhookRecord } from '../webhooks/index.js';
import { claimOutbox, deleteOutbox, findStaleOutbox } from './mail.queries.js';
import type { OutboxEntry } from './mail.queries.js';
import { OutageLog } from '../../jobs/outage-log.js';
import { PendingWrites } from '../../jobs/pending-writes.js';
import { isStoreUnavailable } from '../../store/store-errors.js';
import type { FairLimiter } from '../../lib/fair-limiter.js';

/**
 * Carries out recorded deliveries (the inbound outbox) in the mail-delivery pool, each wallet within its share
 * (a wallet whose receivers are slow waits for itself, not for others), each entry deleted after its one attempt
 * (no retry, docs/contract.md#deliveries, rule 2). Entries recorded here start at once with their body in memory when their
 * wallet has room; otherwise only their id waits, and the body is read back when the wallet's turn comes (memory
 * stays bounded whatever the receivers' speed). Entries whose
 * claim ran out (their instance died) are taken over by `recover()`, compare-and-set on the claim.
 *
 * While the store is away: a delivery made meanwhile has its entry deleted once the store is back
 * (kept in memory, tried every second), so it is not taken over and sent again; an entry waiting for
 * a slot is tried again, and failures are one warning per outage.
 */
/** Where a mailbox's deliveries go and how they are signed (a WebhookRecord will do). */
export type DeliveryTarget = Pick<
  WebhookRecord,
  'url' | 'headers' | 'signingSecret' | 'previousSigningKey' | 'retryAttempts'
>;

export interface ReadyDelivery {
  readonly entry: OutboxEntry;
  readonly target: DeliveryTarget;
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
  readonly claimMs: number;
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

  constructor(
    private readonly deps: Deps,
    private readonly options: DelivererOptions,
  ) {
    this.outage = new OutageLog(deps.logger.child({ worker: 'inbound outbox' }));
    this.deletions = new PendingWrites(this.outage);
    if (options.recoveryIntervalMs !== undefined) {
      this.timer = setInterval(() => void this.recover(), options.recoveryIntervalMs);
      this.timer.unref();
    }
  }

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
      entry = await claimOutbox(this.deps.store, ref.id, ref.claimUntil, now + this.options.claimMs);
    } catch (error) {
      if (isStoreUnavailable(error)) this.park(ref);
      throw error;
    }
    this.outage.answered();
    if (entry === undefined) return; // delivered or taken by another instance
    let webhook;
    try {
      webhook = await findWebhook(this.deps.store.read, entry.walletId, entry.webhookId);
    } catch (error) {
      // Claimed (by us, until now + claimMs), nothing sent: tried again under that claim.
      if (isStoreUnavailable(error))
        this.park({ id: entry.id, claimUntil: now + this.options.claimMs, walletId: entry.walletId });
      throw error;
    }
    if (webhook === undefined || webhook.mode.kind !== 'mailbox') {
      await deleteOutbox(this.deps.store, entry.id); // the mailbox is gone: nobody to deliver to
      return;
    }
    await this.send({ entry, target: webhook, claimUntil: now + this.options.claimMs });
  }

  private async send(ready: ReadyDelivery): Promise<void> {
    const { entry, target } = ready;
    try {
      await deliver(this.deps, {
        trigger: 'email',
        walletId: entry.walletId,
        webhookId: entry.webhookId,
        url: target.url,
        headers: target.headers,
        sign: webhookSigner(target),
        retryAttempts: target.retryAttempts,
        // The stored JSON is signed and sent as is: never parsed and serialised again.
        body: new JsonText(entry.body),
        cost: entry.cost,
        balance: entry.balance,
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
