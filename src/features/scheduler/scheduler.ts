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
import type { ScheduledRunPayload } from '../../formats/index.js';
import { deliver } from '../../delivery-core/index.js';
import { signingKeysOf } from '../webhooks/index.js';
import { drainFairly } from '../../jobs/fair-drain.js';
import { startPoller } from '../../jobs/poller.js';
import type { RunningWorker } from '../../jobs/poller.js';
import { OutageLog } from '../../jobs/outage-log.js';
import { isStoreUnavailable } from '../../store/store-errors.js';
import { MISSED_RUN_GRACE_MS, scheduleCache } from './run-plan.js';
import { RunRecorder } from './run-recorder.js';
import { claimDueRuns } from './scheduler.queries.js';
import type { ClaimedRun } from './scheduler.queries.js';
import { INSUFFICIENT_CREDITS } from '../../errors.js';

/** docs/contract.md#costs: each scheduled run costs 2 credits. */
const SCHEDULED_RUN_COST = 2;
/** While runs are in flight, due schedules are looked for again at least this often (and whenever a run is done). */
const RECLAIM_MS = SECOND;

export interface SchedulerOptions {
  /** Runs in hand at once in this pass (claimed, not yet done); they run in the scheduled-runs pool (deps.pools). Default 64. */
  readonly concurrency?: number;
  /** Schedules claimed per unit of work. Default 128. */
  readonly batchSize?: number;
  /** Once true, no further schedules are claimed; those already claimed still run. */
  readonly shouldStop?: () => boolean;
  /**
   * Runs claimed earlier that could not be charged because the store was away (their claim committed, so
   * no instance will claim them again): carried out first, before anything new is claimed. Runs that meet
   * the store away are added here. Without it such a run is lost.
   */
  readonly unfinished?: ClaimedRun[];
  /** Where failures are reported (default: each one logged as an error). */
  readonly outage?: OutageLog;
}

export interface SchedulerReport {
  /** Runs carried out (charged and delivered, or refused for want of credits). */
  fired: number;
  succeeded: number;
  failed: number;
  /** Due schedules moved on without a run (missed by an hour or more, or invalid). */
  skipped: number;
}

/**
 * One pass: every schedule due now is claimed and run; resolves when all of them are done. Rejects when the
 * store was away for some of it (after the rest is done), leaving the runs it could not charge in `unfinished`.
 */
export async function runDueSchedules(deps: Deps, options: SchedulerOptions = {}): Promise<SchedulerReport> {
  const report: SchedulerReport = { fired: 0, succeeded: 0, failed: 0, skipped: 0 };
  const schedules = scheduleCache();
  const outage = options.outage ?? new OutageLog(deps.logger);
  const unfinished = options.unfinished ?? [];
  let storeAway: unknown;
  const recorder = new RunRecorder(deps.store, (error, lost) => {
    if (!outage.report(error, 'recording scheduled runs failed')) return;
    // The runs happened; only the display of their outcome (last_status) is lost. The pass still fails: the store is away.
    storeAway ??= error;
    deps.logger.debug({ lost }, 'outcomes of scheduled runs not recorded: the store is away');
  });
  // Each wallet's runs are claimed only while it has room in the shared pool: one with many slow receivers makes
  // its own runs late (they stay due in the store, claimed as its runs finish), never another wallet's.
  const held = takeUnfinished(deps, unfinished, report);
  await drainFairly<ClaimedRun>({
    pool: deps.pools.scheduledRuns,
    keyOf: (run) => run.walletId,
    concurrency: options.concurrency ?? deps.pools.scheduledRuns.capacity,
    batchSize: options.batchSize ?? 128,
    recheckMs: RECLAIM_MS,
    shouldStop: options.shouldStop,
    held,
    fetch: async (limit, shares) => {
      const batch = await claimDueRuns(deps.store, { now: deps.clock.now(), limit, schedules, shares });
      report.skipped += batch.skipped;
      if (batch.skipped > 0)
        deps.logger.info({ skipped: batch.skipped }, 'scheduled runs skipped (missed by an hour or more, or invalid)');
      // A batch that moved nothing on (its rows all of wallets without room, or claimed elsewhere) is not fetched again at once.
      return { items: batch.runs, more: batch.more && batch.runs.length + batch.skipped > 0 };
    },
    handle: async (run) => {
      const outcome = await fire(deps, recorder, run);
      if (typeof outcome === 'object') {
        // Not charged (the store was away): kept for a later pass, never lost, never run twice.
        unfinished.push(run);
        storeAway ??= outcome.storeAway;
        return;
      }
      report.fired += 1;
      if (outcome === 'success') report.succeeded += 1;
      else report.failed += 1;
    },
    onError: (error) => outage.report(error, 'scheduled run failed'),
  });
  await recorder.flush();
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the store met, unchanged.
  if (storeAway !== undefined) throw storeAway;
  return report;
}

/** The runs kept from earlier passes, in due order; those now missed by the grace period are dropped as skipped (docs/contract.md#schedules). */
function takeUnfinished(deps: Deps, unfinished: ClaimedRun[], report: SchedulerReport): ClaimedRun[] {
  const held = unfinished.splice(0).sort((a, b) => a.scheduledFor - b.scheduledFor);
  const now = deps.clock.now();
  const due = held.filter((run) => now - run.scheduledFor < MISSED_RUN_GRACE_MS);
  if (due.length < held.length) {
    report.skipped += held.length - due.length;
    deps.logger.info(
      { skipped: held.length - due.length },
      'scheduled runs skipped: the store was away for an hour or more',
    );
  }
  return due;
}

/** Carries out one claimed run: 'success' when the callback answered 2xx; `storeAway` when it could not be charged (nothing sent). */
async function fire(
  deps: Deps,
  recorder: RunRecorder,
  run: ClaimedRun,
): Promise<'success' | 'failure' | { readonly storeAway: unknown }> {
  let charge;
  try {
    // The same charge as metered requests (batched per wallet on PostgreSQL).
    charge = await deps.ledger.charge(run.walletId, SCHEDULED_RUN_COST);
    // Nothing goes out before its charge is durable.
    if (charge.ok) await charge.durable;
  } catch (error) {
    if (isStoreUnavailable(error)) return { storeAway: error };
    throw error;
  }
  if (!charge.ok) {
    if (charge.reason === 'gone') return 'failure'; // the wallet was deleted; its webhooks go with it
    const now = deps.clock.now();
    recorder.add({
      walletId: run.walletId,
      webhookId: run.webhookId,
      ranAt: now,
      status: 'failure',
      error: INSUFFICIENT_CREDITS,
    });
    deps.ledger.recordRefusal(run.walletId, run.webhookId, charge.balance);
    return 'failure';
  }
  const executedAt = deps.clock.now();
  deps.metrics.schedulerLateness.observe(Math.max(0, executedAt - run.scheduledFor) / 1000);
  const body: ScheduledRunPayload = {
    type: 'scheduled_webhook_run',
    webhookId: run.webhookId,
    scheduledFor: isoTime(run.scheduledFor),
    executedAt: isoTime(executedAt),
    walletHash: run.walletHash,
  };
  const result = await deliver(deps, {
    trigger: 'schedule',
    walletId: run.walletId,
    webhookId: run.webhookId,
    url: run.url,
    headers: run.headers,
    signingKeys: signingKeysOf(run),
    retryAttempts: run.retryAttempts,
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
  return result.ok ? 'success' : 'failure';
}

/** Polls every second (aligned to the second, so runs due on a minute fire within milliseconds of it). */
export function startScheduler(deps: Deps, instanceId: string, options: { intervalMs?: number } = {}): RunningWorker {
  const logger = deps.logger.child({ worker: 'scheduler', instance: instanceId });
  const outage = new OutageLog(logger);
  /** Claimed by this instance, not yet charged: the store went away. Lost only if the process stops first. */
  const unfinished: ClaimedRun[] = [];
  const poller = startPoller({
    intervalMs: options.intervalMs ?? SECOND,
    clock: deps.clock,
    pass: async (stopping) => {
      const report = await runDueSchedules(deps, { shouldStop: stopping, unfinished, outage });
      if (report.fired > 0 || report.skipped > 0) logger.debug(report, 'scheduled runs done');
    },
    onError: (error) => outage.report(error, 'scheduler pass failed'),
    outage,
  });
  const stop = async (): Promise<void> => {
    await poller();
    if (unfinished.length > 0)
      logger.warn(
        { runs: unfinished.length },
        'stopped with claimed scheduled runs not carried out: the store was away',
      );
  };
  return Object.assign(stop, { wake: () => poller.wake() });
}
