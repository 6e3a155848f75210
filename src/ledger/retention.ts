import type { Store } from '../store/store.js';
import { deleteInBatches, SWEEP_BATCH } from '../jobs/retention-step.js';
import type { RetentionStep } from '../jobs/retention-step.js';
import { DAY } from '../lib/time.js';
import type { Ledger } from './ledger.js';
import { LOG_RETENTION_MS } from './log-entry.js';
import { SPEND_RETENTION_MS } from './spend-aggregate.js';

/** A wallet unused this long goes with all its data: two years, leap day included. */
export const TOKEN_INACTIVITY_MS = 2 * 365 * DAY + DAY;
const IDLE_WALLET_BATCH = 100;

/**
 * Log batches one DELETE takes at most: up to 12,800 entries (LOG_BATCH_CAPACITY each), a statement that holds the
 * write lock about as long as SWEEP_BATCH rows of another table.
 */
const LOG_SWEEP_BATCHES = 100;

/** What a DELETE of log batches returns: the entries each held, so the sweep reports entries, not batches. */
const RETURNING_ENTRIES = 'RETURNING entry_count AS n';

/** Every log batch, window by window in seq order, each window's expired batches deleted in one short statement. */
async function deleteExpiredLogsAnywhere(store: Store, cutoff: number): Promise<number> {
  let total = 0;
  for (let after = 0; ;) {
    const window = await store.read.get<{ upto: number | string | null }>(
      `SELECT MAX(seq) AS upto FROM (SELECT seq FROM log_batches WHERE seq > $1 ORDER BY seq LIMIT ${LOG_SWEEP_BATCHES}) AS w`,
      [after],
    );
    if (window?.upto === null || window?.upto === undefined) return total;
    const upto = Number(window.upto); // PostgreSQL returns BIGINT as text
    const gone = await store.writeOne<{ n: number | string }>(
      `DELETE FROM log_batches WHERE seq > $1 AND seq <= $2 AND last_at <= $3 ${RETURNING_ENTRIES}`,
      [after, upto, cutoff],
    );
    for (const batch of gone) total += Number(batch.n);
    after = upto;
  }
}

/** The call log's expired entries: the ledger writes the log, so it alone deletes from it. */
function logRetention(store: Store): RetentionStep {
  return {
    name: 'expiredLogs',
    run: async ({ now, walkAll }) => {
      // Log batches have no index on time (inserts are the hot path): they are written nearly in time order, so the
      // expired ones are the oldest by seq; each sweep looks at the oldest only. Batches written late (kept by an
      // instance through a long store outage) sit behind younger ones: the walk of the whole table finds them. A batch
      // goes when its newest entry has expired (LOG_BATCH_SPAN_MS after its oldest at most); reads hide expired entries.
      const cutoff = now - LOG_RETENTION_MS;
      const oldest = await deleteInBatches(
        store,
        `DELETE FROM log_batches WHERE seq IN (SELECT seq FROM (SELECT seq, last_at FROM log_batches ORDER BY seq LIMIT ${LOG_SWEEP_BATCHES}) AS oldest WHERE last_at <= $1) ${RETURNING_ENTRIES}`,
        [cutoff],
        LOG_SWEEP_BATCHES,
      );
      return walkAll ? oldest + (await deleteExpiredLogsAnywhere(store, cutoff)) : oldest;
    },
  };
}

/** Spend per hour (GET /token/spend): a row goes once its hour is older than the days kept. */
function spendRetention(store: Store): RetentionStep {
  return {
    name: 'expiredSpend',
    run: ({ now }) =>
      deleteInBatches(
        store,
        `DELETE FROM spend_hourly WHERE (wallet_id, hour, endpoint) IN (SELECT wallet_id, hour, endpoint FROM spend_hourly WHERE hour < $1 LIMIT ${SWEEP_BATCH}) RETURNING 1 AS n`,
        [now - SPEND_RETENTION_MS],
      ),
  };
}

/** Wallets unused for TOKEN_INACTIVITY_MS, each deleted with its data through the ledger. */
function idleWalletRetention(store: Store, ledger: Pick<Ledger, 'deleteWallet'>): RetentionStep {
  return {
    name: 'deletedWallets',
    run: async ({ now }) => {
      let deleted = 0;
      const cutoff = now - TOKEN_INACTIVITY_MS;
      for (;;) {
        const stale = await store.read.all<{ id: number; hash: string }>(
          `SELECT id, hash FROM wallets WHERE last_used_at < $1 LIMIT ${IDLE_WALLET_BATCH}`,
          [cutoff],
        );
        // Re-checked inside the unit: a wallet used since the SELECT survives.
        for (const wallet of stale) if (await ledger.deleteWallet(wallet, cutoff)) deleted++;
        if (stale.length < IDLE_WALLET_BATCH) return deleted;
      }
    },
  };
}

/** The ledger's tables, in the order the sweep has always taken them: the log, spend per hour, idle wallets. */
export function ledgerRetention(
  store: Store,
  ledger: Pick<Ledger, 'deleteWallet'>,
): { logs: RetentionStep; spend: RetentionStep; wallets: RetentionStep } {
  return { logs: logRetention(store), spend: spendRetention(store), wallets: idleWalletRetention(store, ledger) };
}
