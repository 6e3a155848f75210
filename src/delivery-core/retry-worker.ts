import type { DeliveryPorts } from './deliver.js';
import { FairLimiter } from '../lib/fair-limiter.js';
import { MINUTE, SECOND } from '../lib/time.js';
import { OutageLog } from '../jobs/outage-log.js';
import { startPoller } from '../jobs/poller.js';
import type { RunningWorker } from '../jobs/poller.js';
import type { DeliveryTarget } from './delivery.js';
import { deliverAgain } from './deliver.js';
import type { DeliveryRecord } from './history.js';
import { abandonRetry, claimDueRetries } from './retry.queries.js';

/**
 * The retry worker: sends the due attempts of deliveries left `pending` by a webhook's opt-in retry policy. Any
 * number of instances run it on one store; each attempt is claimed in the database, so it is sent by one instance
 * once, and a restart loses nothing (the state is the rows). Retries are free: a delivery is charged once, by its
 * first attempt. Its slots are shared fairly between wallets (docs/limits.md "Delivery retries").
 */

/**
 * How long a claim holds before the delivery may be claimed again: far beyond an attempt's 10 s timeout, so
 * only a claim whose process died before recording its attempt runs out (that attempt is then sent again).
 */
export const RETRY_CLAIM_LEASE_MS = 5 * MINUTE;
/** Retry attempts in flight at once per instance, in all and of one wallet. */
export const RETRY_SLOTS = 32;
export const RETRY_SLOTS_PER_WALLET = 4;

/** A webhook's current URL, headers and signing keys; undefined when it no longer exists (the webhooks feature answers). */
export type FindDeliveryTarget = (walletId: number, webhookId: string) => Promise<DeliveryTarget | undefined>;

export interface RetryPassOptions {
  readonly findTarget: FindDeliveryTarget;
  /** Attempts in flight at once, in all and of one wallet. Default RETRY_SLOTS and RETRY_SLOTS_PER_WALLET. */
  readonly slots?: number;
  readonly slotsPerWallet?: number;
  readonly shouldStop?: () => boolean;
  readonly outage?: OutageLog;
}

export interface RetryReport {
  sent: number;
  succeeded: number;
  /** Claimed but not sent: the webhook or the wallet is gone. */
  abandoned: number;
}

/**
 * Claims due retries into free slots and runs them, never waiting for attempts in flight before the next claim.
 * A claim takes only what can start at once (the free slots, and per wallet the room its cap leaves), so no claim
 * lease is held by work that waits, and one wallet's due retries never fill the slots.
 */
class RetryDispatcher {
  readonly report: RetryReport = { sent: 0, succeeded: 0, abandoned: 0 };
  private readonly limiter: FairLimiter;
  private readonly perWallet: number;
  /** The attempts in flight, by delivery id: their wallet and their end. */
  private readonly inFlight = new Map<string, { readonly walletId: number; readonly done: Promise<void> }>();

  constructor(
    private readonly deps: DeliveryPorts,
    private readonly options: RetryPassOptions & { readonly outage: OutageLog; readonly onSlotFreed?: () => void },
  ) {
    this.perWallet = options.slotsPerWallet ?? RETRY_SLOTS_PER_WALLET;
    this.limiter = new FairLimiter({ slots: options.slots ?? RETRY_SLOTS, perKey: this.perWallet });
  }

  get running(): number {
    return this.inFlight.size;
  }

  /** Claims what is due and fits the free slots, and starts it; resolves to how many it claimed. */
  async claim(): Promise<number> {
    const free = this.limiter.free;
    if (free === 0) return 0;
    const fullWallets = this.limiter.fullKeys().filter((key): key is number => typeof key === 'number');
    const roomOf = new Map<number, number>();
    for (const { walletId } of this.inFlight.values())
      if (!fullWallets.includes(walletId)) roomOf.set(walletId, this.limiter.roomFor(walletId));
    const now = this.deps.clock.now();
    const claimed = await claimDueRetries(this.deps.store, {
      now,
      leaseUntil: now + RETRY_CLAIM_LEASE_MS,
      limit: free,
      perWallet: Math.min(this.perWallet, free),
      fullWallets,
      roomOf,
    });
    for (const delivery of claimed) this.start(delivery);
    return claimed.length;
  }

  /** Resolves once an attempt in flight ends (at once when none is). */
  async oneEnded(): Promise<void> {
    await Promise.race([...this.inFlight.values()].map((attempt) => attempt.done));
  }

  /** Resolves once every attempt in flight has ended. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((attempt) => attempt.done));
  }

  private start(delivery: DeliveryRecord): void {
    const done = this.limiter
      .run(delivery.walletId, () => retry(this.deps, this.options.findTarget, delivery))
      .then(
        (outcome) => {
          if (outcome === 'abandoned') this.report.abandoned += 1;
          else {
            this.report.sent += 1;
            if (outcome === 'success') this.report.succeeded += 1;
          }
        },
        (error: unknown) => {
          this.options.outage.report(error, 'delivery retry failed');
        },
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.options.onSlotFreed?.();
      });
    this.inFlight.set(delivery.id, { walletId: delivery.walletId, done });
  }
}

/**
 * Every retry due now, claimed and attempted; resolves when all of them are done (tests run it as one pass). Each
 * freed slot is offered to the next claim at once.
 */
export async function runDueRetries(deps: DeliveryPorts, options: RetryPassOptions): Promise<RetryReport> {
  const dispatcher = new RetryDispatcher(deps, { ...options, outage: options.outage ?? new OutageLog(deps.logger) });
  try {
    for (;;) {
      // Work left out because its wallet's slots were busy is claimable once they end, even during this claim.
      const busy = dispatcher.running > 0;
      const claimed = options.shouldStop?.() === true ? 0 : await dispatcher.claim();
      if (claimed === 0 && !busy && dispatcher.running === 0) break;
      if (dispatcher.running > 0) await dispatcher.oneEnded();
    }
  } finally {
    // A claim that failed leaves the attempts already started to finish: their writes land before this resolves.
    await dispatcher.idle();
  }
  return dispatcher.report;
}

async function retry(
  deps: DeliveryPorts,
  findTarget: FindDeliveryTarget,
  delivery: DeliveryRecord,
): Promise<'success' | 'failure' | 'abandoned'> {
  const target = await findTarget(delivery.walletId, delivery.webhookId);
  if (target === undefined || delivery.body === null) {
    await abandonRetry(deps.store, delivery.id, target === undefined ? 'webhook deleted' : 'body not kept');
    return 'abandoned';
  }
  // The balance, for the attempt's log row (retries cost nothing).
  const balance = await deps.ledger.balanceOf(delivery.walletId);
  if (balance === 'gone') {
    await abandonRetry(deps.store, delivery.id, 'wallet deleted');
    return 'abandoned';
  }
  const result = await deliverAgain(deps, {
    kind: 'retry',
    delivery: { ...delivery, body: delivery.body },
    attempt: delivery.attempts,
    target,
    cost: 0,
    balance,
  });
  return result.ok ? 'success' : 'failure';
}

/**
 * Polls every second, like the scheduler, and again whenever an attempt ends (its slot is free): each poll claims
 * into the free slots while earlier attempts are still in flight. While the store is away it pauses (OutageLog) and
 * tries again shortly. Stopping waits for the attempts in flight, so their writes land before the store closes.
 */
export function startRetryWorker(
  deps: DeliveryPorts,
  instanceId: string,
  options: { findTarget: FindDeliveryTarget; intervalMs?: number },
): RunningWorker {
  const logger = deps.logger.child({ worker: 'delivery retries', instance: instanceId });
  const outage = new OutageLog(logger);
  const dispatcher = new RetryDispatcher(deps, {
    findTarget: options.findTarget,
    outage,
    onSlotFreed: () => poller.wake(),
  });
  const poller = startPoller({
    intervalMs: options.intervalMs ?? SECOND,
    clock: deps.clock,
    pass: async (stopping) => {
      if (stopping()) return;
      const claimed = await dispatcher.claim();
      if (claimed > 0) logger.debug({ claimed, running: dispatcher.running }, 'delivery retries claimed');
    },
    onError: (error) => outage.report(error, 'delivery retry pass failed'),
    outage,
  });
  const stop = async (): Promise<void> => {
    await poller();
    await dispatcher.idle();
  };
  return Object.assign(stop, { wake: () => poller.wake() });
}
