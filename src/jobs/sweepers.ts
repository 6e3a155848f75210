import type { Deps } from '../deps.js';
import { claimLease } from '../store/leases.js';
import { startPoller } from './poller.js';
import { OutageLog } from './outage-log.js';
import { DAY, HOUR, MINUTE } from '../lib/time.js';
import { LOG_RETENTION_MS } from '../ledger/log-entry.js';
import { DELIVERY_RETENTION_MS } from '../deliveries/index.js';
import { SPEND_RETENTION_MS } from '../ledger/spend-aggregate.js';

export const TOKEN_INACTIVITY_MS = 2 * 365 * DAY + DAY; // two years, leap day included
const BATCH = 1000;
/**
 * How often the whole log table is walked for expired rows that sit behind younger ones in seq order (rows an
 * instance kept through a long store outage and wrote late), which the per-minute pass never reaches: such a
 * row goes within this long after its expiry, inside the 24 h of docs/contract.md#call-logs.
 */
export const LOG_WALK_INTERVAL_MS = 12 * HOUR;
const LOG_WALK_WINDOW = 5000;
/** Listed beside the one wallet deletion (the operator API's too), in the ledger. */
export { WALLET_DATA_TABLES } from '../ledger/ledger.js';

export interface SweepReport {
  expiredKeys: number;
  expiredLogs: number;
  deletedWallets: number;
}

/** Deletes in bounded batches so a large sweep never holds the write lock for long. */
async function deleteInBatches(deps: Deps, sql: string, params: readonly unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await deps.store.writeOne<{ n: number }>(sql, params);
    total += rows.length;
    if (rows.length < BATCH) return total;
  }
}

/** Every log row, window by window in seq order, each window's expired rows deleted in one short statement. */
async function deleteExpiredLogsAnywhere(deps: Deps, cutoff: number): Promise<number> {
  let total = 0;
  for (let after = 0; ;) {
    const window = await deps.store.read.get<{ upto: number | string | null }>(
      `SELECT MAX(seq) AS upto FROM (SELECT seq FROM logs WHERE seq > $1 ORDER BY seq LIMIT ${LOG_WALK_WINDOW}) AS w`,
      [after],
    );
    if (window?.upto === null || window?.upto === undefined) return total;
    const upto = Number(window.upto); // PostgreSQL returns BIGINT as text
    total += (await deps.store.writeOne('DELETE FROM logs WHERE seq > $1 AND seq <= $2 AND created_at <= $3 RETURNING 1 AS n', [after, upto, cutoff])).length;
    after = upto;
  }
}

/** `walkAllLogs`: also walk the whole log table (see LOG_WALK_INTERVAL_MS). */
export async function sweep(deps: Deps, options: { readonly walkAllLogs?: boolean } = {}): Promise<SweepReport> {
  const now = deps.clock.now();
  // The outer condition is checked again on the row as it is when deleted: a key set anew meanwhile (a later
  // expiry) survives. Rows a KV write holds are skipped, so the sweep never waits on (or deadlocks with) one.
  const skipHeld = deps.store.locks.skipLocked();
  const expiredKeys = await deleteInBatches(
    deps,
    `DELETE FROM kv WHERE expires_at <= $1 AND (wallet_id, bucket, key) IN (SELECT wallet_id, bucket, key FROM kv WHERE expires_at <= $1 LIMIT ${BATCH}${skipHeld}) RETURNING 1 AS n`,
    [now],
  );
  // Logs have no index on time (inserts are the hot path): rows are written nearly in time order, so the
  // expired ones are the oldest by seq; each batch looks at the oldest BATCH rows only (late rows: walkAllLogs).
  let expiredLogs = await deleteInBatches(
    deps,
    `DELETE FROM logs WHERE seq IN (SELECT seq FROM (SELECT seq, created_at FROM logs ORDER BY seq LIMIT ${BATCH}) AS oldest WHERE created_at <= $1) RETURNING 1 AS n`,
    [now - LOG_RETENTION_MS],
  );
  if (options.walkAllLogs === true) expiredLogs += await deleteExpiredLogsAnywhere(deps, now - LOG_RETENTION_MS);
  await deps.store.writeOne('DELETE FROM token_creations WHERE last_at <= $1', [now - MINUTE]);
  // Spend per hour (GET /token/spend): a row goes once its hour is older than the 8 days kept.
  await deleteInBatches(
    deps,
    `DELETE FROM spend_hourly WHERE (wallet_id, hour, endpoint) IN (SELECT wallet_id, hour, endpoint FROM spend_hourly WHERE hour < $1 LIMIT ${BATCH}) RETURNING 1 AS n`,
    [now - SPEND_RETENTION_MS],
  );
  // Inbound-mail attachments whose download URL expired (docs/contract.md#inbound-e-mail: deleted within minutes after).
  await deleteInBatches(
    deps,
    `DELETE FROM mail_attachments WHERE id IN (SELECT id FROM mail_attachments WHERE expires_at <= $1 LIMIT ${BATCH}) RETURNING 1 AS n`,
    [now],
  );
  // Message-IDs inbound mail saw: a day old, they no longer make a repeat (features/mail DUPLICATE_WINDOW_MS; the
  // claim ignores older rows itself, so this only bounds the table). Rows a claim holds are skipped, as for kv.
  await deleteInBatches(
    deps,
    `DELETE FROM inbound_seen_messages WHERE seen_at <= $1 AND (mailbox, message_hash) IN (SELECT mailbox, message_hash FROM inbound_seen_messages WHERE seen_at <= $1 LIMIT ${BATCH}${skipHeld}) RETURNING 1 AS n`,
    [now - DAY],
  );

  // Delivery history, kept as long as the call log; attempts by their own time (those of a deleted wallet's deliveries too).
  await deleteInBatches(deps, `DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE created_at <= $1 LIMIT ${BATCH}) RETURNING 1 AS n`, [
    now - DELIVERY_RETENTION_MS,
  ]);
  await deleteInBatches(
    deps,
    `DELETE FROM delivery_attempts WHERE (delivery_id, attempt) IN (SELECT delivery_id, attempt FROM delivery_attempts WHERE at <= $1 LIMIT ${BATCH}) RETURNING 1 AS n`,
    [now - DELIVERY_RETENTION_MS],
  );

  let deletedWallets = 0;
  const cutoff = now - TOKEN_INACTIVITY_MS;
  for (;;) {
    const stale = await deps.store.read.all<{ id: number; hash: string }>('SELECT id, hash FROM wallets WHERE last_used_at < $1 LIMIT 100', [cutoff]);
    if (stale.length === 0) break;
    for (const wallet of stale) {
      // Re-checked inside the unit: a wallet used since the SELECT survives.
      if (await deps.ledger.deleteWallet(wallet, cutoff)) deletedWallets++;
    }
    if (stale.length < 100) break;
  }
  return { expiredKeys, expiredLogs, deletedWallets };
}

/**
 * Runs the sweep at start and then every minute, on whichever instance holds the lease; the returned stop
 * waits for a sweep in progress, so the store can close after it. A sweep the store's going away cut
 * short is tried again within seconds of its return (every step is idempotent), a claimed log walk with it.
 */
export function startSweepers(deps: Deps, holder: string, intervalMs = MINUTE): () => Promise<void> {
  let walkClaims = 0;
  /** The log walk was claimed by a sweep that did not finish: the next sweep does it without claiming again. */
  let walkOwed = false;
  const outage = new OutageLog(deps.logger.child({ worker: 'sweepers', instance: holder }));
  return startPoller({
    intervalMs,
    clock: deps.clock,
    pass: async () => {
      const now = deps.clock.now();
      if (!(await claimLease(deps.store, 'sweep', holder, now, intervalMs - 5000))) return;
      // Its own lease, claimed under a holder name used once, so it is won only when the last walk's has run out:
      // once per interval across instances and restarts.
      walkOwed ||= await claimLease(deps.store, 'log-walk', `${holder}#${++walkClaims}`, now, LOG_WALK_INTERVAL_MS);
      deps.logger.debug(await sweep(deps, { walkAllLogs: walkOwed }), 'sweep done');
      walkOwed = false;
    },
    onError: (error) => outage.report(error, 'sweep failed'),
    outage,
  });
}
