import type { Sql, Store } from '../../store/store.js';
import type { LowBalanceWebhook } from './settings.schemas.js';

/**
 * The low-balance outbox lives on the wallet row. `lb_pending`:
 *   0 nothing to send · 1 an incident to notify (set by the charge that crossed the threshold,
 *   in the same statement) · 2 claimed by a notifier until `lb_pending_until`.
 * A claim whose notifier died is taken over once its lease has run out.
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

const CLAIM = `
UPDATE wallets SET lb_pending = 2, lb_pending_until = $1
WHERE id = $2 AND (lb_pending = 1 OR (lb_pending = 2 AND lb_pending_until < $3))
RETURNING id, hash, balance, lb_threshold, lb_webhook, lb_email`;

/**
 * Matches only this claim: a new incident raised meanwhile (lb_pending back to 1) stays pending,
 * and a claim taken over after its lease ran out is released by its new holder only.
 */
const RELEASE = 'UPDATE wallets SET lb_pending = 0, lb_pending_until = 0 WHERE id = $1 AND lb_pending = 2 AND lb_pending_until = $2';

/** Wallets with a notification to send or a claim gone stale; two index lookups. */
export async function pendingWallets(sql: Sql, now: number, limit: number): Promise<number[]> {
  const pending = await sql.all<{ id: number }>('SELECT id FROM wallets WHERE lb_pending = 1 ORDER BY id LIMIT $1', [limit]);
  const room = limit - pending.length;
  const stale =
    room > 0
      ? await sql.all<{ id: number }>('SELECT id FROM wallets WHERE lb_pending = 2 AND lb_pending_until < $1 ORDER BY lb_pending_until LIMIT $2', [now, room])
      : [];
  return [...pending, ...stale].map((row) => row.id);
}

/** The conditional UPDATE that makes one notifier, on one instance, the sender. */
export async function claimNotification(store: Store, walletId: number, now: number, leaseMs: number): Promise<ClaimedNotification | undefined> {
  const leaseUntil = now + leaseMs;
  const [row] = await store.writeOne<ClaimedRow>(CLAIM, [leaseUntil, walletId, now]);
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
