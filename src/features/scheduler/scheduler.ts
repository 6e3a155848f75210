/**
 * The scheduler: fires scheduled webhooks when their `next_run_at` comes. Any number of instances
 * may run it against one store; each run is claimed in the database (scheduler.queries.ts), so it
 * fires on exactly one instance.
 *
 * A run: charge 2 credits → POST the scheduled-run payload → record last_run_at/last_status/last_error.
 * An empty wallet records `failure` / `Insufficient credits` and sends nothing; the schedule stays.
 */
import type { Deps } from '../../deps.js';
import { isoTime, SECOND } from '../../lib/time.js';
import type { ScheduledRunPayload } from '../formats/index.js';
import { deliver } from '../webhooks/index.js';
import { drainBatches } from '../../jobs/bounded-pool.js';
import { startPoller } from '../../jobs/poller.js';
import type { RunningWorker } from '../../jobs/poller.js';
import { scheduleCache } from './run-plan.js';
import { RunRecorder } from './run-recorder.js';
import { claimDueRuns } from './scheduler.queries.js';
import type { ClaimedRun } from './scheduler.queries.js';
import { INSUFFICIENT_CREDITS } from '../../errors.js';

/** SPEC "Limits": each scheduled run costs 2 credits. */
const SCHEDULED_RUN_COST = 2;

export interface SchedulerOptions {
  /** Deliveries in flight at once. Default 64. */
  readonly concurrency?: number;
  /** Schedules claimed per unit of work. Default 128. */
  readonly batchSize?: number;
  /** Once true, no further schedules are claimed; those already claimed still run. */
  readonly shouldStop?: () => boolean;
}

export interface SchedulerReport {
  /** Runs carried out (charged and delivered, or refused for want of credits). */
  fired: number;
  succeeded: number;
  failed: number;
  /** Due schedules moved on without a run (missed by an hour or more, or invalid). */
  skipped: number;
}

/** One pass: every schedule due now is claimed and run; resolves when all of them are done. */
export async function runDueSchedules(deps: Deps, options: SchedulerOptions = {}): Promise<SchedulerReport> {
  const report: SchedulerReport = { fired: 0, succeeded: 0, failed: 0, skipped: 0 };
  const schedules = scheduleCache();
  const recorder = new RunRecorder(deps.store, (error, lost) => deps.logger.error({ err: error, lost }, 'recording scheduled runs failed'));
  await drainBatches<ClaimedRun>({
    concurrency: options.concurrency ?? 64,
    batchSize: options.batchSize ?? 128,
    shouldStop: options.shouldStop,
    fetch: async (limit) => {
      const batch = await claimDueRuns(deps.store, { now: deps.clock.now(), limit, schedules });
      report.skipped += batch.skipped;
      if (batch.skipped > 0) deps.logger.info({ skipped: batch.skipped }, 'scheduled runs skipped (missed by an hour or more, or invalid)');
      return { items: batch.runs, more: batch.more };
    },
    handle: async (run) => {
      const ok = await fire(deps, recorder, run);
      report.fired += 1;
      if (ok) report.succeeded += 1;
      else report.failed += 1;
    },
    onError: (error) => deps.logger.error({ err: error }, 'scheduled run failed'),
  });
  await recorder.flush();
  return report;
}

/** Carries out one claimed run; true when the callback answered 2xx. */
async function fire(deps: Deps, recorder: RunRecorder, run: ClaimedRun): Promise<boolean> {
  // The same charge as metered requests (batched per wallet on PostgreSQL).
  const charge = await deps.ledger.charge(run.walletId, SCHEDULED_RUN_COST);
  if (!charge.ok) {
    if (charge.reason === 'gone') return false; // the wallet was deleted; its webhooks go with it
    const now = deps.clock.now();
    recorder.add({ walletId: run.walletId, webhookId: run.webhookId, ranAt: now, status: 'failure', error: INSUFFICIENT_CREDITS });
    deps.ledger.recordRefusal(run.walletId, run.webhookId, charge.balance);
    return false;
  }
  // Nothing goes out before its charge is durable.
  await charge.durable;
  const executedAt = deps.clock.now();
  const body: ScheduledRunPayload = {
    type: 'scheduled_webhook_run',
    webhookId: run.webhookId,
    scheduledFor: isoTime(run.scheduledFor),
    executedAt: isoTime(executedAt),
    walletHash: run.walletHash,
  };
  const result = await deliver(deps, {
    walletId: run.walletId,
    webhookId: run.webhookId,
    url: run.url,
    headers: run.headers,
    signingSecret: run.signingSecret,
    body,
    cost: SCHEDULED_RUN_COST,
    balance: charge.balance,
  });
  recorder.add({
    walletId: run.walletId,
    webhookId: run.webhookId,
    ranAt: executedAt,
    status: result.ok ? 'success' : 'failure',
    ...(result.ok ? {} : { error: result.cause }),
  });
  return result.ok;
}

/** Polls every second (aligned to the second, so runs due on a minute fire within milliseconds of it). */
export function startScheduler(deps: Deps, instanceId: string, options: { intervalMs?: number } = {}): RunningWorker {
  const logger = deps.logger.child({ worker: 'scheduler', instance: instanceId });
  return startPoller({
    intervalMs: options.intervalMs ?? SECOND,
    clock: deps.clock,
    pass: async (stopping) => {
      const report = await runDueSchedules(deps, { shouldStop: stopping });
      if (report.fired > 0 || report.skipped > 0) logger.debug(report, 'scheduled runs done');
    },
    onError: (error) => logger.error({ err: error }, 'scheduler pass failed'),
  });
}
