import type { Sql, Store } from '../../store/store.js';
import type { LowBalanceWebhook } from './settings.schemas.js';

/**
 * The low-balance outbox lives on the wallet row. `lb_pending`:
 *   0 nothing to send · 1 an incident to notify (set by the charge that crossed the threshold,
 *   in the same statement) · 2 claimed by a notifier until `lb_pending_until`.
 * A claim whose notifier died is taken over once its lease has run out.
 * `lb_last_sent_at`: when a claim last meant a send. A pending incident is claimed only once that is
 * `minIntervalMs` old, so a wallet gets at most one notification per interval whatever re-arms it, on
 * every instance; one held back waits, pending, and goes out when the interval is over (if still low).
 */

/** A claimed notification: the wallet as it is at claim time. */
export interface ClaimedNotification {
  readonly walletId: number;
  readonly hash: string;
  readonly balance: number;
  readonly threshold: number;
  readonly webhook?: LowBalanceWebhook;
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
const RELEASE = 'UPDATE wallets SET lb_pending = 0, lb_pending_until = 0 WHERE id = $1 AND lb_pending = 2 AND lb_pending_until = $2';

/** Wallets with a notification due (not held back by the interval) or a claim gone stale; two index lookups. */
export async function pendingWallets(sql: Sql, now: number, minIntervalMs: number, limit: number): Promise<number[]> {
  const pending = await sql.all<{ id: number }>('SELECT id FROM wallets WHERE lb_pending = 1 AND lb_last_sent_at <= $1 ORDER BY id LIMIT $2', [
    now - minIntervalMs,
    limit,
  ]);
  const room = limit - pending.length;
  const stale =
    room > 0
      ? await sql.all<{ id: number }>('SELECT id FROM wallets WHERE lb_pending = 2 AND lb_pending_until < $1 ORDER BY lb_pending_until LIMIT $2', [now, room])
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
export async function claimNotification(store: Store, walletId: number, timing: ClaimTiming): Promise<ClaimedNotification | undefined> {
  const leaseUntil = timing.now + timing.leaseMs;
  const [row] = await store.writeOne<ClaimedRow>(CLAIM, [leaseUntil, walletId, timing.now, timing.now - timing.minIntervalMs]);
  if (row === undefined) return undefined;
  return {
    walletId: row.id,
    hash: row.hash,
    balance: row.balance,
    threshold: row.lb_threshold,
    ...(row.lb_webhook === null ? {} : { webhook: JSON.parse(row.lb_webhook) as LowBalanceWebhook }),
    ...(row.lb_email === null ? {} : { email: row.lb_email }),
    leaseUntil,
  };
}

export async function releaseNotification(store: Store, claim: ClaimedNotification): Promise<void> {
  await store.writeOne(RELEASE, [claim.walletId, claim.leaseUntil]);
}
