import type { Sql, Store, Unit } from '../store/store.js';
import type { AttemptRecord, DeliveryRecord, DeliveryRow } from './history.js';
import { attemptParams, fromRow, INSERT_ATTEMPT, SUMMARY_COLUMNS } from './history.js';
import { deleteOutboxOf } from './outbox.queries.js';
import type { DeliveryTrigger } from './delivery.js';
import { INTERRUPTED_ATTEMPT } from './retry-policy.js';

/**
 * The queries of retries and redeliveries. A later attempt takes its number first (`attempts = attempts + 1`,
 * atomic), so concurrent attempts of one delivery never share a number; its outcome is written after the send.
 */

/** What one claim may take: the free slots in all, and per wallet the room its slots leave. */
export interface RetryClaim {
  readonly now: number;
  readonly leaseUntil: number;
  /** Deliveries claimed at most in all. */
  readonly limit: number;
  /** Deliveries of one wallet claimed at most, for a wallet with nothing in flight. */
  readonly perWallet: number;
  /** Wallets whose slots are all taken: none of theirs is claimed. */
  readonly fullWallets: readonly number[];
  /** Wallets with attempts in flight but room left: how many more of each may be claimed. */
  readonly roomOf: ReadonlyMap<number, number>;
}

/**
 * The room of each wallet as an SQL expression: `perWallet` unless `roomOf` says otherwise. Casts give both engines
 * one integer type for the parameters (PostgreSQL cannot infer it from a CASE made of parameters only).
 */
function roomExpression(claim: RetryClaim, params: unknown[]): string {
  params.push(claim.perWallet);
  const otherwise = `CAST($${params.length} AS INTEGER)`;
  if (claim.roomOf.size === 0) return otherwise;
  const whens = [...claim.roomOf].map(([walletId, room]) => {
    params.push(walletId, room);
    return `WHEN $${params.length - 1} THEN CAST($${params.length} AS INTEGER)`;
  });
  return `CASE wallet_id ${whens.join(' ')} ELSE ${otherwise} END`;
}

/**
 * Claims due pending deliveries, each exactly once across instances, fairly between wallets: none of a wallet in
 * `fullWallets`, at most its room of any other, and each wallet's earliest due first (every wallet's first before
 * any wallet's second), `limit` in all. The claim moves `next_attempt_at` to `leaseUntil`, so a claim whose process
 * died before recording its attempt is taken again once the lease is over (the state is in the database). Ranked
 * rows another instance is claiming meanwhile are passed over (SKIP LOCKED), and the UPDATE checks again that each
 * row is still due, so two instances never claim one row.
 */
export async function claimDueRetries(store: Store, claim: RetryClaim): Promise<DeliveryRecord[]> {
  if (claim.limit <= 0) return [];
  const params: unknown[] = [claim.now, claim.leaseUntil, claim.limit];
  const room = roomExpression(claim, params);
  const full = claim.fullWallets.map((walletId) => {
    params.push(walletId);
    return `$${params.length}`;
  });
  const notFull = full.length === 0 ? '' : ` AND wallet_id NOT IN (${full.join(', ')})`;
  return store.write(async (tx) => {
    const rows = await tx.all<DeliveryRow>(
      `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = $2
       WHERE id IN (
         SELECT id FROM deliveries WHERE id IN (
           SELECT id FROM (
             SELECT id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY wallet_id ORDER BY next_attempt_at, id) AS turn, ${room} AS room
             FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1${notFull}
           ) ranked WHERE turn <= room ORDER BY turn, next_attempt_at, id LIMIT $3
         ) AND status = 'pending' AND next_attempt_at <= $1${tx.locks.skipLocked()}
       ) AND status = 'pending' AND next_attempt_at <= $1
       RETURNING ${SUMMARY_COLUMNS}, body`,
      params,
    );
    return rows.map(fromRow);
  });
}

/** A first attempt lost with its instance (retry-worker.ts, recoverInterrupted), as the history is to show it. */
export interface InterruptedAttempt {
  readonly deliveryId: string;
  /** When it was found lost: the attempt's time in the history. */
  readonly at: number;
  readonly url: string;
  readonly trigger: DeliveryTrigger;
  /** A retry follows (the claim that found it took attempt 2); else the delivery ends as a failure. */
  readonly retries: boolean;
}

/**
 * Attempt 1 of a delivery claimed with no last attempt: recorded as one that got no answer. With retries the delivery
 * stays pending under the claim; without, it ends as a failure and gives back the number the claim took.
 */
export async function recordInterrupted(store: Store, lost: InterruptedAttempt): Promise<void> {
  await store.write(async (tx) => {
    await tx.run(
      `UPDATE deliveries SET last_attempt_at = $2, last_error = $3,
         status = CASE WHEN $4 = 1 THEN status ELSE 'failure' END,
         next_attempt_at = CASE WHEN $4 = 1 THEN next_attempt_at ELSE NULL END,
         attempts = CASE WHEN $4 = 1 THEN attempts ELSE 1 END
       WHERE id = $1 AND status = 'pending'`,
      [lost.deliveryId, lost.at, INTERRUPTED_ATTEMPT, lost.retries ? 1 : 0],
    );
    await tx.run(
      INSERT_ATTEMPT,
      attemptParams({
        deliveryId: lost.deliveryId,
        attempt: 1,
        trigger: lost.trigger,
        at: lost.at,
        url: lost.url,
        statusCode: null,
        ms: 0,
        error: INTERRUPTED_ATTEMPT,
        responseBody: null,
        willRetry: lost.retries,
      }),
    );
  });
}

/** Takes the next attempt number of a delivery (for a redelivery); undefined when the delivery is gone. */
export async function reserveAttempt(store: Store, deliveryId: string): Promise<number | undefined> {
  const [row] = await store.writeOne<{ attempts: number }>(
    'UPDATE deliveries SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts',
    [deliveryId],
  );
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
 * pending (a redelivery that succeeded meanwhile ended it). Ending an e-mail delivery drops its content (docs/contract.md#deliveries, rule 5).
 */
export async function recordRetry(store: Store, outcome: LaterOutcome, attempt: AttemptRecord): Promise<void> {
  const status = outcome.ok ? 'success' : outcome.nextAttemptAt === null ? 'failure' : 'pending';
  await store.write(async (tx) => {
    await tx.run(
      `UPDATE deliveries SET status = $2, next_attempt_at = $3, last_attempt_at = $4, last_status_code = $5, last_error = $6,
         body = CASE WHEN trigger = 'email' AND $7 = 1 THEN NULL ELSE body END
       WHERE id = $1 AND status = 'pending'`,
      [
        attempt.deliveryId,
        status,
        outcome.nextAttemptAt,
        outcome.at,
        outcome.statusCode,
        outcome.error,
        status === 'pending' ? 0 : 1,
      ],
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

/** Whether a delivery is still due a retry: false once it ended, a deletion of its webhook included (endDeliveriesOf). */
export async function isPending(sql: Sql, deliveryId: string): Promise<boolean> {
  const row = await sql.get<{ status: string }>('SELECT status FROM deliveries WHERE id = $1', [deliveryId]);
  return row?.status === 'pending';
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

/**
 * A webhook's deletion, in its unit: its deliveries still due a retry end (`failure`, `webhook deleted`, e-mail
 * content dropped) and its routed mail not yet sent leaves the outbox, so nothing of it reaches a webhook created
 * again under the same id. A retry or an outbox send already claimed reads, after its target, whether its delivery
 * still waits (isPending, outbox.queries.ts's outboxEntryWaits), and sends nothing once it does not.
 */
export async function endDeliveriesOf(tx: Unit, walletId: number, webhookId: string): Promise<void> {
  await tx.run(
    `UPDATE deliveries SET status = 'failure', next_attempt_at = NULL, last_error = 'webhook deleted',
       body = CASE WHEN trigger = 'email' THEN NULL ELSE body END
     WHERE wallet_id = $1 AND webhook_id = $2 AND status = 'pending'`,
    [walletId, webhookId],
  );
  await deleteOutboxOf(tx, walletId, webhookId);
}
