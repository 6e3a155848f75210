import type { DeliveryPorts } from './deliver.js';
import { FairLimiter } from '../lib/fair-limiter.js';
import type { PoolKey } from '../lib/fair-limiter.js';
import { drainFairly } from '../jobs/fair-drain.js';
import { SECOND } from '../lib/time.js';
import { OutageLog } from '../jobs/outage-log.js';
import { startPoller } from '../jobs/poller.js';
import type { RunningWorker } from '../jobs/poller.js';
import type { DeliveryTarget } from './delivery.js';
import { deliverAgain } from './deliver.js';
import type { DeliveryRecord } from './history.js';
import { abandonRetry, claimDueRetries, isPending, recordInterrupted } from './retry.queries.js';
import { IN_FLIGHT_LEASE_MS, INTERRUPTED_ATTEMPT } from './retry-policy.js';

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
export const RETRY_CLAIM_LEASE_MS = IN_FLIGHT_LEASE_MS;
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

/** While attempts are in flight, due retries are looked for again at least this often (and whenever one ends). */
const RECLAIM_MS = SECOND;

/**
 * Every retry due now, claimed and attempted fairly between wallets (jobs/fair-drain.ts): a claim takes only what
 * can start at once (the free slots, and per wallet the room its cap leaves), so no claim lease is held by work that
 * waits, and one wallet's due retries never fill the slots; each attempt that ends lets the next claim in at once.
 * Resolves when nothing is due and every attempt claimed is done; a failed claim rejects once those in flight end.
 */
export async function runDueRetries(deps: DeliveryPorts, options: RetryPassOptions): Promise<RetryReport> {
  const slots = options.slots ?? RETRY_SLOTS;
  const perWallet = options.slotsPerWallet ?? RETRY_SLOTS_PER_WALLET;
  const pool = new FairLimiter({ slots, perKey: perWallet });
  const outage = options.outage ?? new OutageLog(deps.logger);
  const report: RetryReport = { sent: 0, succeeded: 0, abandoned: 0 };
  await drainFairly<DeliveryRecord>({
    pool,
    keyOf: (delivery) => delivery.walletId,
    concurrency: slots,
    batchSize: slots,
    recheckMs: RECLAIM_MS,
    shouldStop: options.shouldStop,
    fetch: async (limit, shares) => {
      const now = deps.clock.now();
      const claimed = await claimDueRetries(deps.store, {
        now,
        leaseUntil: now + RETRY_CLAIM_LEASE_MS,
        limit,
        perWallet: Math.min(perWallet, limit),
        fullWallets: shares.full.filter(isWalletId),
        roomOf: new Map(shares.busy.filter(isWalletId).map((walletId) => [walletId, shares.roomFor(walletId)])),
      });
      return { items: claimed, more: claimed.length === limit };
    },
    handle: async (delivery) => {
      const outcome = await retry(deps, options.findTarget, delivery);
      if (outcome === 'abandoned') report.abandoned += 1;
      else {
        report.sent += 1;
        if (outcome === 'success') report.succeeded += 1;
      }
    },
    onError: (error) => outage.report(error, 'delivery retry failed'),
  });
  return report;
}

const isWalletId = (key: PoolKey): key is number => typeof key === 'number';

/**
 * A charged first attempt whose instance stopped before recording it (deliver.ts records it as in flight before the
 * send, with no last attempt): its call-log row, with the charge it was made for, and its attempt in the history, as
 * an attempt that got no answer. Resolves to whether a retry follows (the webhook allows one and the body was kept);
 * otherwise the delivery ends as a failure.
 */
async function recoverInterrupted(deps: DeliveryPorts, delivery: DeliveryRecord): Promise<boolean> {
  const at = deps.clock.now();
  const retries = delivery.maxAttempts > 1 && delivery.body !== null;
  const balance = await deps.ledger.balanceOf(delivery.walletId);
  if (balance !== 'gone')
    deps.ledger.record({
      walletId: delivery.walletId,
      method: 'POST',
      path: delivery.webhookId,
      endpoint: 'webhook-delivery',
      statusCode: 502,
      responseTimeMs: 0,
      error: `webhook call failed: ${INTERRUPTED_ATTEMPT}`,
      cost: delivery.cost,
      balance,
      deliveryId: delivery.id,
    });
  await recordInterrupted(deps.store, {
    deliveryId: delivery.id,
    at,
    url: delivery.url,
    trigger: delivery.trigger,
    retries,
  });
  return retries;
}

async function retry(
  deps: DeliveryPorts,
  findTarget: FindDeliveryTarget,
  delivery: DeliveryRecord,
): Promise<'success' | 'failure' | 'abandoned'> {
  if (delivery.lastAttemptAt === null && !(await recoverInterrupted(deps, delivery))) return 'failure';
  const target = await findTarget(delivery.walletId, delivery.webhookId);
  // Read after the target: a webhook deleted and created again under its id meanwhile ended this delivery first.
  if (target !== undefined && !(await isPending(deps.store.read, delivery.id))) return 'abandoned';
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
 * Polls every second, like the scheduler: each pass claims into the free slots and claims again as attempts end, until
 * nothing is due and nothing is in flight. While the store is away it pauses (OutageLog) and tries again shortly.
 * Stopping ends the claims and waits for the attempts in flight, so their writes land before the store closes.
 */
export function startRetryWorker(
  deps: DeliveryPorts,
  instanceId: string,
  options: { findTarget: FindDeliveryTarget; intervalMs?: number },
): RunningWorker {
  const logger = deps.logger.child({ worker: 'delivery retries', instance: instanceId });
  const outage = new OutageLog(logger);
  return startPoller({
    intervalMs: options.intervalMs ?? SECOND,
    clock: deps.clock,
    pass: async (stopping) => {
      const report = await runDueRetries(deps, { findTarget: options.findTarget, shouldStop: stopping, outage });
      if (report.sent > 0 || report.abandoned > 0) logger.debug(report, 'delivery retries done');
    },
    onError: (error) => outage.report(error, 'delivery retry pass failed'),
    outage,
  });
}
