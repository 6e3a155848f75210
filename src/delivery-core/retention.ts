import type { Store } from '../store/store.js';
import { deleteInBatches, SWEEP_BATCH } from '../jobs/retention-step.js';
import type { RetentionStep } from '../jobs/retention-step.js';
import { DELIVERY_RETENTION_MS } from './deliver.js';

/**
 * Delivery history, kept as long as the call log: deliveries by their creation, attempts by their own time (so
 * those of a deleted wallet's deliveries go too).
 */
export function deliveryRetention(store: Store): RetentionStep[] {
  return [
    {
      name: 'expiredDeliveries',
      run: ({ now }) =>
        deleteInBatches(
          store,
          `DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE created_at <= $1 LIMIT ${SWEEP_BATCH}) RETURNING 1 AS n`,
          [now - DELIVERY_RETENTION_MS],
        ),
    },
    {
      name: 'expiredAttempts',
      run: ({ now }) =>
        deleteInBatches(
          store,
          `DELETE FROM delivery_attempts WHERE (delivery_id, attempt) IN (SELECT delivery_id, attempt FROM delivery_attempts WHERE at <= $1 LIMIT ${SWEEP_BATCH}) RETURNING 1 AS n`,
          [now - DELIVERY_RETENTION_MS],
        ),
    },
  ];
}
