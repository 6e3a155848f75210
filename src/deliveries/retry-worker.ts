import type { Deps } from '../deps.js';
import { MINUTE, SECOND } from '../lib/time.js';
import { drainBatches } from '../jobs/bounded-pool.js';
import { OutageLog } from '../jobs/outage-log.js';
import { startPoller } from '../jobs/poller.js';
import type { RunningWorker } from '../jobs/poller.js';
import type { DeliveryTarget } from './delivery.js';
import { deliverAgain } from './deliver.js';
import type { DeliveryRecord } from './history.js';
import { abandonRetry, claimDueRetries } from './retry.queries.js';

/**
 * The retry worker (issue 16): sends the due attempts of deliveries left `pending` by a webhook's opt-in retry
 * policy. Any number of instances run it on one store; each attempt is claimed in the database, so it is sent by
 * one instance once, and a restart loses nothing (the state is the rows). Retries are free: a delivery is charged
 * once, by its first attempt.
 */

/**
 * How long a claim holds before the delivery may be claimed again: far beyond an attempt's 10 s timeout, so
 * only a claim whose process died before recording its attempt runs out (that attempt is then sent again).
 */
export const RETRY_CLAIM_LEASE_MS = 5 * MINUTE;

/** A webhook's current URL, headers and signing keys; undefined when it no longer exists (the webhooks feature answers). */
export type FindDeliveryTarget = (walletId: number, webhookId: string) => Promise<DeliveryTarget | undefined>;

export interface RetryPassOptions {
  readonly findTarget: FindDeliveryTarget;
  /** Attempts in flight at once. Default 32. */
  readonly concurrency?: number;
  /** Deliveries claimed per unit of work. Default 64. */
  readonly batchSize?: number;
  readonly shouldStop?: () => boolean;
  readonly outage?: OutageLog;
}

export interface RetryReport {
  sent: number;
  succeeded: number;
  /** Claimed but not sent: the webhook or the wallet is gone. */
  abandoned: number;
}

/** One pass: every retry due now is claimed and attempted; resolves when all of them are done. */
export async function runDueRetries(deps: Deps, options: RetryPassOptions): Promise<RetryReport> {
  const report: RetryReport = { sent: 0, succeeded: 0, abandoned: 0 };
  const outage = options.outage ?? new OutageLog(deps.logger);
  await drainBatches<DeliveryRecord>({
    concurrency: options.concurrency ?? 32,
    batchSize: options.batchSize ?? 64,
    shouldStop: options.shouldStop,
    fetch: async (limit) => {
      const now = deps.clock.now();
      const items = await claimDueRetries(deps.store, { now, leaseUntil: now + RETRY_CLAIM_LEASE_MS, limit });
      return { items, more: items.length === limit };
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

async function retry(deps: Deps, findTarget: FindDeliveryTarget, delivery: DeliveryRecord): Promise<'success' | 'failure' | 'abandoned'> {
  const target = await findTarget(delivery.walletId, delivery.webhookId);
  if (target === undefined || delivery.body === null) {
    await abandonRetry(deps.store, delivery.id, target === undefined ? 'webhook deleted' : 'body not kept');
    return 'abandoned';
  }
  // A zero charge only reads the balance, for the attempt's log row (retries cost nothing).
  const wallet = await deps.ledger.charge(delivery.walletId, 0);
  if (!wallet.ok && wallet.reason === 'gone') {
    await abandonRetry(deps.store, delivery.id, 'wallet deleted');
    return 'abandoned';
  }
  const result = await deliverAgain(deps, {
    kind: 'retry',
    delivery: { ...delivery, body: delivery.body },
    attempt: delivery.attempts,
    target,
    cost: 0,
    balance: wallet.ok ? wallet.balance : wallet.reason === 'insufficient' ? wallet.balance : 0,
  });
  return result.ok ? 'success' : 'failure';
}

/** Polls every second, like the scheduler; while the store is away it pauses (OutageLog) and tries again shortly. */
export function startRetryWorker(deps: Deps, instanceId: string, options: { findTarget: FindDeliveryTarget; intervalMs?: number }): RunningWorker {
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
