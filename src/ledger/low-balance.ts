import type { Sql, Store } from '../store/store.js';

/**
 * The low-balance outbox lives on the wallet row. `lb_pending`:
 *   0 nothing to send · 1 an incident to notify (set by the charge that crossed the threshold,
 *   in the same statement) · 2 claimed by a notifier until `lb_pending_until`.
 * A claim whose notifier died is taken over once its lease has run out.
 * `lb_last_sent_at`: when a claim last meant a send. A pending incident is claimed only once that is
 * `minIntervalMs` old, so re-arming by threshold edits (free) gets a wallet at most one notification per
 * interval, on every instance; one held back waits, pending, and goes out when the interval is over (if
 * still low). A real credit that lifts the balance above the threshold resets it to 0 (wallet.queries.ts):
 * that re-arm is paid for, and the next crossing is notified at once.
 */

/** A claimed notification: the wallet as it is at claim time. */
export interface ClaimedNotification {
  readonly walletId: number;
  readonly hash: string;
  readonly balance: number;
  readonly threshold: number;
  /** The webhook as the settings stored it (JSON text); its shape is the settings feature's business. */
  readonly webhookJson?: string;
  readonly email?: string;
  /** The lease end; it also identifies this claim when it is released. */
  readonly leaseUntil: number;
}

interface ClaimedRow {
  readonly id: number;
  readonly hash: string;
  readonly balance: number;
  readonly lb_threshold: number;
  readonly lb_webhook: string | null;
  readonly lb_email: string | null;
}

/** The condition under which a claim sends (the notifier checks the same on the returned row). */
const WILL_SEND = 'lb_threshold > 0 AND balance <= lb_threshold AND (lb_webhook IS NOT NULL OR lb_email IS NOT NULL)';

const CLAIM = `
UPDATE wallets SET lb_pending = 2, lb_pending_until = $1,
  lb_last_sent_at = CASE WHEN ${WILL_SEND} THEN $3 ELSE lb_last_sent_at END
WHERE id = $2 AND ((lb_pending = 1 AND lb_last_sent_at <= $4) OR (lb_pending = 2 AND lb_pending_until < $3))
RETURNING id, hash, balance, lb_threshold, lb_webhook, lb_email`;

/**
 * Matches only this claim: a new incident raised meanwhile (lb_pending back to 1) stays pending,
 * and a claim taken over after its lease ran out is released by its new holder only.
 */
const RELEASE =
  'UPDATE wallets SET lb_pending = 0, lb_pending_until = 0 WHERE id = $1 AND lb_pending = 2 AND lb_pending_until = $2';

/** Wallets with a notification due (not held back by the interval) or a claim gone stale; two index lookups. */
export async function pendingWallets(sql: Sql, now: number, minIntervalMs: number, limit: number): Promise<number[]> {
  const pending = await sql.all<{ id: number }>(
    'SELECT id FROM wallets WHERE lb_pending = 1 AND lb_last_sent_at <= $1 ORDER BY id LIMIT $2',
    [now - minIntervalMs, limit],
  );
  const room = limit - pending.length;
  const stale =
    room > 0
      ? await sql.all<{ id: number }>(
          'SELECT id FROM wallets WHERE lb_pending = 2 AND lb_pending_until < $1 ORDER BY lb_pending_until LIMIT $2',
          [now, room],
        )
      : [];
  return [...pending, ...stale].map((row) => row.id);
}

/** When a claim is made, from the clock, and how long it and the rate limit last. */
export interface ClaimTiming {
  readonly now: number;
  readonly leaseMs: number;
  readonly minIntervalMs: number;
}

/** The conditional UPDATE that makes one notifier, on one instance, the sender; it also enforces the rate limit. */
export async function claimNotification(
  store: Store,
  walletId: number,
  timing: ClaimTiming,
): Promise<ClaimedNotification | undefined> {
  const leaseUntil = timing.now + timing.leaseMs;
  const [row] = await store.writeOne<ClaimedRow>(CLAIM, [
    leaseUntil,
    walletId,
    timing.now,
    timing.now - timing.minIntervalMs,
  ]);
  if (row === undefined) return undefined;
  return {
    walletId: row.id,
    hash: row.hash,
    balance: row.balance,
    threshold: row.lb_threshold,
    ...(row.lb_webhook === null ? {} : { webhookJson: row.lb_webhook }),
    ...(row.lb_email === null ? {} : { email: row.lb_email }),
    leaseUntil,
  };
}

export async function releaseNotification(store: Store, claim: ClaimedNotification): Promise<void> {
  await store.writeOne(RELEASE, [claim.walletId, claim.leaseUntil]);
}

/** A change to a wallet's low-balance settings: `undefined` keeps the stored value, `null` clears it. */
export interface LowBalanceSettingsChange {
  readonly threshold?: number;
  /** The webhook as JSON text (the settings feature owns its shape). */
  readonly webhookJson?: string | null;
  readonly email?: string | null;
}

/**
 * One statement, so concurrent updates of different fields never undo each other.
 * A new threshold re-arms the incident: the next charge at or below it notifies. So does a first target (a webhook
 * or an e-mail where there was neither): a crossing with nowhere to send it told no one, and must not count as told.
 */
export async function updateLowBalanceSettings(
  store: Store,
  walletId: number,
  change: LowBalanceSettingsChange,
): Promise<void> {
  await store.writeOne(
    `UPDATE wallets SET
       lb_threshold = CASE WHEN $1 = 1 THEN $2 ELSE lb_threshold END,
       lb_armed = CASE
         WHEN $1 = 1 THEN 1
         WHEN lb_webhook IS NULL AND lb_email IS NULL
           AND (($3 = 1 AND CAST($4 AS TEXT) IS NOT NULL) OR ($5 = 1 AND CAST($6 AS TEXT) IS NOT NULL)) THEN 1
         ELSE lb_armed END,
       lb_webhook = CASE WHEN $3 = 1 THEN $4 ELSE lb_webhook END,
       lb_email = CASE WHEN $5 = 1 THEN $6 ELSE lb_email END
     WHERE id = $7`,
    [
      change.threshold !== undefined,
      change.threshold ?? 0,
      change.webhookJson !== undefined,
      change.webhookJson ?? null,
      change.email !== undefined,
      change.email ?? null,
      walletId,
    ],
  );
}
