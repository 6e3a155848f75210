import type { Sql, Store, Unit } from '../store/store.js';
import { cutText } from '../lib/cut-text.js';
import { MAX_LOG_TEXT } from '../ledger/log-entry.js';
import { RETRY_BUDGET_BYTES, RETRY_BUDGET_DELIVERIES, retryBudgetFullError } from './retry-policy.js';
import { DELIVERY_STATUSES } from './delivery.js';
import type { DeliveryStatus, DeliveryTrigger } from './delivery.js';

/**
 * The delivery history (migration 12): a `deliveries` row per delivery, keyed by its `webhook-id`, and a
 * `delivery_attempts` row per attempt. Written once per attempt, read by GET /webhook/{id}/deliveries.
 */

export interface DeliveryRecord {
  readonly id: string;
  readonly walletId: number;
  readonly webhookId: string;
  readonly trigger: DeliveryTrigger;
  readonly createdAt: number;
  readonly status: DeliveryStatus;
  /** Attempt numbers handed out so far (a retry or redelivery takes its number before it is sent). */
  readonly attempts: number;
  /** The first attempt and the retries its webhook's policy allowed when it was made (1: no retry). */
  readonly maxAttempts: number;
  readonly lastAttemptAt: number | null;
  readonly nextAttemptAt: number | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly url: string;
  readonly cost: number;
  /** The exact JSON text sent; null when it was over the 1 MiB rule, and e-mail content once its delivery ended (docs/contract.md#deliveries, rule 5). */
  readonly body: string | null;
}

export interface AttemptRecord {
  readonly deliveryId: string;
  readonly attempt: number;
  /** The delivery's trigger for its first attempt and its retries; `redelivery` for one asked for by POST …/redeliver. */
  readonly trigger: DeliveryTrigger;
  readonly at: number;
  readonly url: string;
  readonly statusCode: number | null;
  readonly ms: number;
  readonly error: string | null;
  /** The first 1 KiB of the receiver's answer. */
  readonly responseBody: string | null;
  readonly willRetry: boolean;
}

const UPSERT_DELIVERY = `INSERT INTO deliveries (id, wallet_id, webhook_id, trigger, created_at, status, attempts, last_attempt_at, next_attempt_at,
  last_status_code, last_error, url, cost, body, max_attempts, body_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
ON CONFLICT (id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts, last_attempt_at = excluded.last_attempt_at,
  next_attempt_at = excluded.next_attempt_at, last_status_code = excluded.last_status_code, last_error = excluded.last_error`;
export const INSERT_ATTEMPT = `INSERT INTO delivery_attempts (delivery_id, attempt, at, url, status_code, ms, error, response_body, will_retry, trigger)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/** INSERT_ATTEMPT's parameters. */
export const attemptParams = (a: AttemptRecord): unknown[] => [
  a.deliveryId,
  a.attempt,
  a.at,
  a.url,
  a.statusCode,
  a.ms,
  a.error,
  a.responseBody,
  a.willRetry ? 1 : 0,
  a.trigger,
];

/** What a wallet has pending retry now: deliveries and the bytes of their kept bodies. */
async function pendingRetriesOf(tx: Unit, walletId: number): Promise<{ deliveries: number; bytes: number }> {
  const row = await tx.get<{ deliveries: number; bytes: number }>(
    // A first attempt still in flight (no last attempt yet, see recordInFlight) holds no place: it is not a retry.
    `SELECT COUNT(*) AS deliveries, COALESCE(SUM(body_bytes), 0) AS bytes FROM deliveries
     WHERE wallet_id = $1 AND status = 'pending' AND last_attempt_at IS NOT NULL`,
    [walletId],
  );
  return { deliveries: Number(row?.deliveries ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** A delivery that was to be retried, ended instead: its wallet's retry budget has no room for it. */
function withoutRetry(delivery: DeliveryRecord, attempt: AttemptRecord): [DeliveryRecord, AttemptRecord] {
  const lastError = cutText(retryBudgetFullError(delivery.lastError), MAX_LOG_TEXT);
  return [
    { ...delivery, status: 'failure', nextAttemptAt: null, lastError },
    { ...attempt, willRetry: false },
  ];
}

/**
 * One attempt and the delivery's state after it, in one unit: the history never shows one without the other. A
 * delivery to be left `pending` takes room in its wallet's retry budget (RETRY_BUDGET_*) in the same unit, under the
 * wallet's row lock, so instances sharing a database never overfill it; without room it ends as a failure. Ended
 * e-mail deliveries keep no content (rule 5 of webhook deliveries: routed mail is not retained after delivery).
 * Resolves to the status recorded.
 */
export async function recordAttempt(
  store: Store,
  delivery: DeliveryRecord,
  attempt: AttemptRecord,
): Promise<DeliveryStatus> {
  return store.write(async (tx) => {
    let [d, a] = [delivery, attempt];
    const bodyBytes = d.body === null ? 0 : Buffer.byteLength(d.body);
    if (d.status === 'pending') {
      await tx.lockRow('wallets', { id: d.walletId });
      const pending = await pendingRetriesOf(tx, d.walletId);
      if (pending.deliveries + 1 > RETRY_BUDGET_DELIVERIES || pending.bytes + bodyBytes > RETRY_BUDGET_BYTES)
        [d, a] = withoutRetry(d, a);
    }
    const body = d.trigger === 'email' && d.status !== 'pending' ? null : d.body;
    await tx.run(UPSERT_DELIVERY, [
      d.id,
      d.walletId,
      d.webhookId,
      d.trigger,
      d.createdAt,
      d.status,
      d.attempts,
      d.lastAttemptAt,
      d.nextAttemptAt,
      d.lastStatusCode,
      d.lastError,
      d.url,
      d.cost,
      body,
      d.maxAttempts,
      body === null ? 0 : bodyBytes,
    ]);
    await tx.run(INSERT_ATTEMPT, attemptParams(a));
    return d.status;
  });
}

/**
 * A charged first attempt about to be sent, recorded before it is: `pending`, attempt 1 taken, no last attempt, due
 * again when IN_FLIGHT_LEASE_MS is over. recordAttempt replaces it with the outcome; if its instance stops first, the
 * retry worker finds it once the lease is over and records it as interrupted (retry-worker.ts), so a charge is never
 * left without its delivery, its log row and, where the webhook allows them, its retries.
 */
export async function recordInFlight(store: Store, delivery: DeliveryRecord): Promise<void> {
  const bodyBytes = delivery.body === null ? 0 : Buffer.byteLength(delivery.body);
  await store.writeOne(
    `INSERT INTO deliveries (id, wallet_id, webhook_id, trigger, created_at, status, attempts, last_attempt_at,
       next_attempt_at, last_status_code, last_error, url, cost, body, max_attempts, body_bytes)
     VALUES ($1, $2, $3, $4, $5, 'pending', 1, NULL, $6, NULL, NULL, $7, $8, $9, $10, $11)`,
    [
      delivery.id,
      delivery.walletId,
      delivery.webhookId,
      delivery.trigger,
      delivery.createdAt,
      delivery.nextAttemptAt,
      delivery.url,
      delivery.cost,
      delivery.body,
      delivery.maxAttempts,
      bodyBytes,
    ],
  );
}

export interface DeliveryRow {
  id: string;
  wallet_id: number;
  webhook_id: string;
  trigger: DeliveryTrigger;
  created_at: number;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  url: string;
  cost: number;
  body: string | null;
  max_attempts: number;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: number;
  url: string;
  status_code: number | null;
  ms: number;
  error: string | null;
  response_body: string | null;
  will_retry: number;
  trigger: DeliveryTrigger | null;
}

export const SUMMARY_COLUMNS = `id, wallet_id, webhook_id, trigger, created_at, status, attempts, last_attempt_at, next_attempt_at, last_status_code,
  last_error, url, cost, max_attempts`;

/**
 * Low-balance notifications are recorded under their log path `low-balance`, which is also a valid webhook id:
 * a webhook of that name does not show them.
 */
const OF_A_WEBHOOK = `trigger <> 'low_balance'`;

export function fromRow(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    walletId: row.wallet_id,
    webhookId: row.webhook_id,
    trigger: row.trigger,
    createdAt: row.created_at,
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    url: row.url,
    cost: row.cost,
    maxAttempts: row.max_attempts,
    body: row.body ?? null,
  };
}

export interface DeliveryQuery {
  readonly walletId: number;
  readonly webhookId: string;
  readonly limit: number;
  readonly status?: DeliveryStatus;
  /** Rows created at or before this are expired (not yet swept): left out. */
  readonly expiredAt: number;
}

/** What a delivery list is read from: the store's reads, and how it merges index walks. */
export type DeliverySource = Pick<Store, 'read' | 'mergeWalks'>;

/**
 * A webhook's deliveries, newest first, without their bodies. The index (wallet, webhook, state, time, id) makes one
 * state's deliveries a range read newest first and the list stops after `limit` of them, whatever the webhook holds;
 * unfiltered, the three states' ranges are merged as they go (Store.mergeWalks). Besides those rows, a list reads
 * only the low-balance notifications of a webhook named `low-balance` (one an hour at most).
 */
export async function listDeliveries(source: DeliverySource, query: DeliveryQuery): Promise<DeliveryRecord[]> {
  const states = query.status === undefined ? DELIVERY_STATUSES : [query.status];
  // State names are our constants, never user input.
  const walks = states.map(
    (status) =>
      `SELECT ${SUMMARY_COLUMNS} FROM deliveries WHERE wallet_id = $1 AND webhook_id = $2 AND status = '${status}' AND created_at > $3 AND ${OF_A_WEBHOOK}`,
  );
  const rows = await source.read.all<DeliveryRow>(
    source.mergeWalks(walks, 'created_at DESC, id DESC', { limit: '$4' }),
    [query.walletId, query.webhookId, query.expiredAt, query.limit],
  );
  return rows.map(fromRow);
}

/** One delivery of a wallet's webhook with its body and attempts; undefined when there is none (or it expired). */
export async function findDelivery(
  sql: Sql,
  key: { walletId: number; webhookId: string; deliveryId: string; expiredAt: number },
): Promise<{ delivery: DeliveryRecord; attempts: AttemptRecord[] } | undefined> {
  const row = await sql.get<DeliveryRow>(
    `SELECT ${SUMMARY_COLUMNS}, body FROM deliveries WHERE id = $1 AND wallet_id = $2 AND webhook_id = $3 AND created_at > $4 AND ${OF_A_WEBHOOK}`,
    [key.deliveryId, key.walletId, key.webhookId, key.expiredAt],
  );
  if (row === undefined) return undefined;
  const attempts = await sql.all<AttemptRow>(
    'SELECT delivery_id, attempt, at, url, status_code, ms, error, response_body, will_retry, trigger FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt',
    [key.deliveryId],
  );
  return {
    delivery: fromRow(row),
    attempts: attempts.map((a) => ({
      deliveryId: a.delivery_id,
      attempt: a.attempt,
      // Attempts recorded before migration 13 were all first attempts.
      trigger: a.trigger ?? row.trigger,
      at: a.at,
      url: a.url,
      statusCode: a.status_code,
      ms: a.ms,
      error: a.error,
      responseBody: a.response_body,
      willRetry: a.will_retry === 1,
    })),
  };
}
