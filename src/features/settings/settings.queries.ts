import type { Sql, Store } from '../../store/store.js';
import type { LowBalanceWebhook } from './settings.schemas.js';

export interface LowBalanceSettings {
  readonly threshold: number;
  readonly webhook?: LowBalanceWebhook;
  readonly email?: string;
}

export async function readSettings(sql: Sql, walletId: number): Promise<LowBalanceSettings | undefined> {
  const row = await sql.get<{ lb_threshold: number; lb_webhook: string | null; lb_email: string | null }>(
    'SELECT lb_threshold, lb_webhook, lb_email FROM wallets WHERE id = $1',
    [walletId],
  );
  if (row === undefined) return undefined;
  return {
    threshold: row.lb_threshold,
    ...(row.lb_webhook === null ? {} : { webhook: JSON.parse(row.lb_webhook) as LowBalanceWebhook }),
    ...(row.lb_email === null ? {} : { email: row.lb_email }),
  };
}

/** A change to apply: `undefined` keeps the stored value, `null` clears it. */
export interface SettingsChange {
  readonly threshold?: number;
  readonly webhook?: LowBalanceWebhook | null;
  readonly email?: string | null;
}

/**
 * One statement, so concurrent updates of different fields never undo each other.
 * A new threshold re-arms the incident: the next charge at or below it notifies.
 */
export async function updateSettings(store: Store, walletId: number, change: SettingsChange): Promise<void> {
  await store.writeOne(
    `UPDATE wallets SET
       lb_threshold = CASE WHEN $1 = 1 THEN $2 ELSE lb_threshold END,
       lb_armed = CASE WHEN $1 = 1 THEN 1 ELSE lb_armed END,
       lb_webhook = CASE WHEN $3 = 1 THEN $4 ELSE lb_webhook END,
       lb_email = CASE WHEN $5 = 1 THEN $6 ELSE lb_email END
     WHERE id = $7`,
    [
      change.threshold !== undefined,
      change.threshold ?? 0,
      change.webhook !== undefined,
      change.webhook ? JSON.stringify(change.webhook) : null,
      change.email !== undefined,
      change.email ?? null,
      walletId,
    ],
  );
}
