import type { Deps } from '../../deps.js';
import { JsonText } from '../webhooks/index.js';
import { deliver } from '../webhooks/index.js';
import { findWebhook } from '../webhooks/index.js';
import { claimOutbox, deleteOutbox, findStaleOutbox } from './mail.queries.js';
import type { OutboxEntry } from './mail.queries.js';

/**
 * Carries out recorded deliveries (the inbound outbox): at most `concurrency` at once, each entry
 * deleted after its one attempt (no retry, SPEC delivery rule 2). Entries recorded here start at
 * once with their body in memory; when all slots are busy only their id waits, and the body is read
 * back when a slot frees up (memory stays bounded whatever the receivers' speed). Entries whose
 * claim ran out (their instance died) are taken over by `recover()`, compare-and-set on the claim.
 */
export interface DeliveryTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly signingSecret: string;
}

export interface ReadyDelivery {
  readonly entry: OutboxEntry;
  readonly target: DeliveryTarget;
  readonly claimUntil: number;
}

interface WaitingRef {
  readonly id: string;
  readonly claimUntil: number;
}

export interface DelivererOptions {
  readonly concurrency: number;
  readonly claimMs: number;
  /** Default: no periodic recovery. */
  readonly recoveryIntervalMs?: number;
}

/** Ids waiting for a slot (only ids, so a few MB at most); beyond, entries are left to recovery once their claim runs out. */
const MAX_WAITING = 100_000;

export class OutboxDeliverer {
  private running = 0;
  private readonly waiting: WaitingRef[] = [];
  private readonly idleWaiters = new Set<() => void>();
  private readonly timer: NodeJS.Timeout | undefined;
  private recovering = false;
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly options: DelivererOptions,
  ) {
    if (options.recoveryIntervalMs !== undefined) {
      this.timer = setInterval(() => void this.recover(), options.recoveryIntervalMs);
      this.timer.unref();
    }
  }

  push(ready: ReadyDelivery): void {
    if (this.closed) return; // stays in the outbox; recovered once its claim runs out
    if (this.running < this.options.concurrency) {
      this.start(() => this.send(ready));
      return;
    }
    if (this.waiting.length < MAX_WAITING) this.waiting.push({ id: ready.entry.id, claimUntil: ready.claimUntil });
  }

  /** Takes over entries whose claim ran out; returns how many were queued. */
  async recover(): Promise<number> {
    if (this.recovering || this.closed) return 0;
    this.recovering = true;
    try {
      const room = this.options.concurrency - this.running - this.waiting.length;
      if (room <= 0) return 0;
      const stale = await findStaleOutbox(this.deps.store.read, this.deps.clock.now(), room);
      for (const row of stale) this.enqueueRef({ id: row.id, claimUntil: row.claim_until });
      return stale.length;
    } catch (error) {
      this.deps.logger.error({ err: error }, 'inbound outbox recovery failed');
      return 0;
    } finally {
      this.recovering = false;
    }
  }

  /** Resolves once nothing is running or waiting. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** No new work; resolves when the deliveries in flight are done (waiting ones stay in the outbox). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.waiting.length = 0;
    await this.idle();
  }

  private enqueueRef(ref: WaitingRef): void {
    if (this.running < this.options.concurrency) this.start(() => this.sendRef(ref));
    else this.waiting.push(ref);
  }

  private start(work: () => Promise<void>): void {
    this.running += 1;
    work()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'inbound delivery failed'))
      .finally(() => {
        this.running -= 1;
        const next = this.closed ? undefined : this.waiting.shift();
        if (next !== undefined) this.start(() => this.sendRef(next));
        else if (this.running === 0 && this.waiting.length === 0) {
          for (const wake of this.idleWaiters) wake();
          this.idleWaiters.clear();
        }
      });
  }

  private async sendRef(ref: WaitingRef): Promise<void> {
    const now = this.deps.clock.now();
    const entry = await claimOutbox(this.deps.store, ref.id, ref.claimUntil, now + this.options.claimMs);
    if (entry === undefined) return; // delivered or taken by another instance
    const webhook = await findWebhook(this.deps.store.read, entry.walletId, entry.webhookId);
    if (webhook === undefined || webhook.mode.kind !== 'mailbox') {
      await deleteOutbox(this.deps.store, entry.id); // the mailbox is gone: nobody to deliver to
      return;
    }
    const target = { url: webhook.url, headers: webhook.headers, signingSecret: webhook.signingSecret };
    await this.send({ entry, target, claimUntil: now + this.options.claimMs });
  }

  private async send(ready: ReadyDelivery): Promise<void> {
    const { entry, target } = ready;
    try {
      await deliver(this.deps, {
        walletId: entry.walletId,
        webhookId: entry.webhookId,
        url: target.url,
        headers: target.headers,
        signingSecret: target.signingSecret,
        // The stored JSON is signed and sent as is: never parsed and serialised again.
        body: new JsonText(entry.body),
        cost: entry.cost,
        balance: entry.balance,
      });
    } finally {
      await deleteOutbox(this.deps.store, entry.id);
    }
  }
}
