import type { Store } from '../../store/store.js';
import { deleteInBatches, SWEEP_BATCH } from '../../jobs/retention-step.js';
import type { RetentionStep } from '../../jobs/retention-step.js';

/** Keys whose TTL has run out. */
export function kvRetention(store: Store): RetentionStep {
  return {
    name: 'expiredKeys',
    // The outer condition is checked again on the row as it is when deleted: a key set anew meanwhile (a later
    // expiry) survives. Rows a KV write holds are skipped, so the sweep never waits on (or deadlocks with) one.
    run: ({ now }) =>
      deleteInBatches(
        store,
        `DELETE FROM kv WHERE expires_at <= $1 AND (wallet_id, bucket, key) IN (SELECT wallet_id, bucket, key FROM kv WHERE expires_at <= $1 LIMIT ${SWEEP_BATCH}${store.locks.skipLocked()}) RETURNING 1 AS n`,
        [now],
      ),
  };
}
