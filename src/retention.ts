/**
 * The retention sweep's steps, one per owner of the rows, in the order they run: each owner deletes its own
 * expired rows (src/jobs/retention-step.ts); the sweeper (src/jobs/sweepers.ts) only runs them under its lease.
 */
import type { Deps } from './deps.js';
import type { RetentionStep } from './jobs/retention-step.js';
import { runSweep, startSweepers } from './jobs/sweepers.js';
import type { SweepReport } from './jobs/sweepers.js';
import { MINUTE } from './lib/time.js';
import { ledgerRetention } from './ledger/retention.js';
import { deliveryRetention } from './delivery-core/retention.js';
import { kvRetention } from './features/kv/kv.retention.js';
import { tokenCreationRetention } from './features/tokens/tokens.retention.js';
import { attachmentRetention, seenMessageRetention } from './features/mail/mail.retention.js';

type RetentionDeps = Pick<Deps, 'store' | 'ledger'>;

export function retentionSteps({ store, ledger }: RetentionDeps): RetentionStep[] {
  const ledgerSteps = ledgerRetention(store, ledger);
  return [
    kvRetention(store),
    ledgerSteps.logs,
    tokenCreationRetention(store),
    ledgerSteps.spend,
    attachmentRetention(store),
    seenMessageRetention(store),
    ...deliveryRetention(store),
    ledgerSteps.wallets,
  ];
}

/** One sweep now; `walkAllLogs` also walks whole tables (see LOG_WALK_INTERVAL_MS). */
export function sweep(
  deps: RetentionDeps & Pick<Deps, 'clock'>,
  options: { readonly walkAllLogs?: boolean } = {},
): Promise<SweepReport> {
  return runSweep(retentionSteps(deps), { now: deps.clock.now(), walkAll: options.walkAllLogs === true });
}

/** The sweeper over every owner's step (see startSweepers). */
export function startRetention(
  deps: RetentionDeps & Pick<Deps, 'clock' | 'logger'>,
  holder: string,
  intervalMs = MINUTE,
): () => Promise<void> {
  return startSweepers(deps, retentionSteps(deps), holder, intervalMs);
}
