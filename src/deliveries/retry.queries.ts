import type { Store } from '../store/store.js';
import type { AttemptRecord, DeliveryRecord, DeliveryRow } from './history.js';
import { attemptParams, fromRow, INSERT_ATTEMPT, SUMMARY_COLUMNS } from './history.js';

/**
 * The queries of retries and redeliveries. A later attempt takes its number first (`attempts = attempts + 1`,
 * atomic), so concurrent attempts of one delivery never share a number; its outcome is written after the send.
 */

/**
 * Claims up to `limit` pending deliveries due at `now`, each exactly once across instances: rows another
 * instance is claiming are skipped, and the claim moves `next_attempt_at` to `leaseUntil`, so a claim whose
 * process died before recording its attempt is taken again once the lease is over (the state is in the database).
 */
export async function claimDueRetries(store: Store, options: { now: number; leaseUntil: number; limit: number }): Promise<DeliveryRecord[]> {
  return store.write(async (tx) => {
    const rows = await tx.all<DeliveryRow>(
      `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = $2
       WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3${tx.locks.skipLocked()})
         AND status = 'pending' AND next_attempt_at <= $1
       RETURNING ${SUMMARY_COLUMNS}, body`,
      [options.now, options.leaseUntil, options.limit],
    );
    return rows.map(fromRow).sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
  });
}

/** Takes the next attempt number of a delivery (for a redelivery); undefined when the delivery is gone. */
export async function reserveAttempt(store: Store, deliveryId: string): Promise<number | undefined> {
  const [row] = await store.writeOne<{ attempts: number }>('UPDATE deliveries SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts', [deliveryId]);
  return row?.attempts;
}

/** How a later attempt ended, for the delivery's row. */
export interface LaterOutcome {
  readonly ok: boolean;
  readonly at: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** Retries only: when the next attempt is due; null when this one ends the delivery. */
  readonly nextAttemptAt: number | null;
}

/**
 * A retry's outcome: pending again, or ended (success or failure). Written only while the delivery is still
 * pending (a redelivery that succeeded meanwhile ended it). Ending an e-mail delivery drops its content (SPEC rule 5).
 */
export async function recordRetry(store: Store, outcome: LaterOutcome, attempt: AttemptRecord): Promise<void> {
  const status = outcome.ok ? 'success' : outcome.nextAttemptAt === null ? 'failure' : 'pending';
  await store.write(async (tx) => {
    await tx.run(
      `UPDATE deliveries SET status = $2, next_attempt_at = $3, last_attempt_at = $4, last_status_code = $5, last_error = $6,
         body = CASE WHEN trigger = 'email' AND $7 = 1 THEN NULL ELSE body END
       WHERE id = $1 AND status = 'pending'`,
      [attempt.deliveryId, status, outcome.nextAttemptAt, outcome.at, outcome.statusCode, outcome.error, status === 'pending' ? 0 : 1],
    );
    await tx.run(INSERT_ATTEMPT, attemptParams(attempt));
  });
}

/**
 * A redelivery's outcome. A success ends the delivery (pending retries are no longer needed); a failure leaves a
 * pending delivery's retries as they are, and otherwise makes it a failure (the status says how the last attempt went).
 */
export async function recordRedelivery(store: Store, outcome: LaterOutcome, attempt: AttemptRecord): Promise<void> {
  await store.write(async (tx) => {
    await tx.run(
      `UPDATE deliveries SET last_attempt_at = $2, last_status_code = $3, last_error = $4,
         status = CASE WHEN $5 = 1 THEN 'success' WHEN status = 'pending' THEN 'pending' ELSE 'failure' END,
         next_attempt_at = CASE WHEN $5 = 1 THEN NULL ELSE next_attempt_at END,
         body = CASE WHEN trigger = 'email' AND ($5 = 1 OR status <> 'pending') THEN NULL ELSE body END
       WHERE id = $1`,
      [attempt.deliveryId, outcome.at, outcome.statusCode, outcome.error, outcome.ok ? 1 : 0],
    );
    await tx.run(INSERT_ATTEMPT, attemptParams(attempt));
  });
}

/** Ends a claimed retry that cannot be sent (its webhook or wallet is gone): a failure, its number given back. */
export async function abandonRetry(store: Store, deliveryId: string, error: string): Promise<void> {
  await store.writeOne(
    `UPDATE deliveries SET status = 'failure', next_attempt_at = NULL, attempts = attempts - 1, last_error = $2,
       body = CASE WHEN trigger = 'email' THEN NULL ELSE body END
     WHERE id = $1 AND status = 'pending'`,
    [deliveryId, error],
  );
}
