import type { Sql } from '../../store/store.js';
import type { Deps } from '../../deps.js';
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

/** Written by the ledger, which owns every write to the wallet row; the webhook is stored as its JSON. */
export function updateSettings(deps: Pick<Deps, 'ledger'>, walletId: number, change: SettingsChange): Promise<void> {
  const webhookJson =
    change.webhook === undefined ? undefined : change.webhook === null ? null : JSON.stringify(change.webhook);
  return deps.ledger.updateLowBalanceSettings(walletId, {
    threshold: change.threshold,
    webhookJson,
    email: change.email,
  });
}
