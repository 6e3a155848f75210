import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Clock } from '../lib/time.js';
import { claimLease } from '../store/leases.js';
import { startPoller } from './poller.js';
import { OutageLog } from './outage-log.js';
import { HOUR, MINUTE } from '../lib/time.js';
import type { RetentionStep, SweepPass } from './retention-step.js';

export type { RetentionStep, SweepPass } from './retention-step.js';

/**
 * How often a sweep also walks whole tables (`SweepPass.walkAll`) for expired rows that sit behind younger ones
 * (log rows an instance kept through a long store outage and wrote late), which the per-minute pass never
 * reaches: such a row goes within this long after its expiry, inside the 24 h of docs/contract.md#call-logs.
 */
export const LOG_WALK_INTERVAL_MS = 12 * HOUR;

/** Each step's count of deleted rows, by its name. */
export type SweepReport = Readonly<Record<string, number>>;

/** Runs every owner's step once, in order. */
export async function runSweep(steps: readonly RetentionStep[], pass: SweepPass): Promise<SweepReport> {
  const report: Record<string, number> = {};
  for (const step of steps) report[step.name] = await step.run(pass);
  return report;
}

/** What the sweeper needs besides the steps: the lease table, the time, somewhere to log. */
export interface SweeperParts {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Runs the sweep at start and then every minute, on whichever instance holds the lease; the returned stop
 * waits for a sweep in progress, so the store can close after it. A sweep the store's going away cut
 * short is tried again within seconds of its return (every step is idempotent), a claimed walk with it.
 */
export function startSweepers(
  parts: SweeperParts,
  steps: readonly RetentionStep[],
  holder: string,
  intervalMs = MINUTE,
): () => Promise<void> {
  const { store, clock, logger } = parts;
  let walkClaims = 0;
  /** The walk was claimed by a sweep that did not finish: the next sweep does it without claiming again. */
  let walkOwed = false;
  const outage = new OutageLog(logger.child({ worker: 'sweepers', instance: holder }));
  return startPoller({
    intervalMs,
    clock,
    pass: async () => {
      const now = clock.now();
      if (!(await claimLease(store, { name: 'sweep', holder, now, ttlMs: intervalMs - 5000 }))) return;
      // Its own lease, claimed under a holder name used once, so it is won only when the last walk's has run out:
      // once per interval across instances and restarts.
      walkOwed ||= await claimLease(store, {
        name: 'log-walk',
        holder: `${holder}#${++walkClaims}`,
        now,
        ttlMs: LOG_WALK_INTERVAL_MS,
      });
      logger.debug(await runSweep(steps, { now, walkAll: walkOwed }), 'sweep done');
      walkOwed = false;
    },
    onError: (error) => outage.report(error, 'sweep failed'),
    outage,
  });
}
