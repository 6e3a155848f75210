import type { Sql, Store, Unit } from '../../store/store.js';
import { endDeliveriesOf } from '../../delivery-core/index.js';
import { isWebhookFormat } from '../../formats/index.js';
import type { WebhookRecord } from './webhook-record.js';

/** Columns of migration 2's `webhooks` table and migration 10's previous signing secret; JSON columns hold TEXT, booleans 0/1. */
interface WebhookRow {
  webhook_id: string;
  url: string;
  headers: string;
  format: string | null;
  template: string | null;
  options: string | null;
  include_attachments: number;
  mailbox: string | null;
  signing_secret: string;
  cron: string | null;
  timezone: string | null;
  active: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_status: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  previous_signing_secret: string | null;
  signing_secret_rotated_at: number | null;
  retry_attempts: number;
}

const COLUMNS = `webhook_id, url, headers, format, template, options, include_attachments, mailbox, signing_secret,
  cron, timezone, active, next_run_at, last_run_at, last_status, last_error, created_at, updated_at, previous_signing_secret, signing_secret_rotated_at, retry_attempts`;
const COLUMN_COUNT = COLUMNS.split(',').length;

function fromRow(row: WebhookRow): WebhookRecord {
  const mode: WebhookRecord['mode'] =
    row.cron !== null && row.timezone !== null
      ? {
          kind: 'scheduled',
          cron: row.cron,
          timezone: row.timezone,
          active: row.active === 1,
          nextRunAt: row.next_run_at,
        }
      : {
          kind: 'mailbox',
          format: isWebhookFormat(row.format) ? row.format : null,
          template: row.template === null ? null : (JSON.parse(row.template) as Record<string, unknown>),
          options: row.options === null ? {} : (JSON.parse(row.options) as Record<string, string>),
          includeAttachments: row.include_attachments === 1,
        };
  return {
    webhookId: row.webhook_id,
    url: row.url,
    headers: JSON.parse(row.headers) as Record<string, string>,
    mode,
    mailbox: row.mailbox,
    signingSecret: row.signing_secret,
    ...(row.previous_signing_secret === null || row.signing_secret_rotated_at === null
      ? {}
      : { previousSigningKey: { secret: row.previous_signing_secret, rotatedAt: row.signing_secret_rotated_at } }),
    history: { lastRunAt: row.last_run_at, lastStatus: row.last_status, lastError: row.last_error },
    ...(row.retry_attempts > 0 ? { retryAttempts: row.retry_attempts } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Values for every column after `wallet_id`, in COLUMNS order. */
function toParams(record: WebhookRecord): unknown[] {
  const { mode, history } = record;
  const mailbox = mode.kind === 'mailbox' ? mode : undefined;
  const scheduled = mode.kind === 'scheduled' ? mode : undefined;
  return [
    record.webhookId,
    record.url,
    JSON.stringify(record.headers),
    mailbox?.format ?? null,
    mailbox?.template == null ? null : JSON.stringify(mailbox.template),
    mailbox === undefined ? null : JSON.stringify(mailbox.options),
    mailbox?.includeAttachments ?? true,
    record.mailbox,
    record.signingSecret,
    scheduled?.cron ?? null,
    scheduled?.timezone ?? null,
    scheduled?.active ?? false,
    scheduled?.nextRunAt ?? null,
    history.lastRunAt,
    history.lastStatus,
    history.lastError,
    record.createdAt,
    record.updatedAt,
    record.previousSigningKey?.secret ?? null,
    record.previousSigningKey?.rotatedAt ?? null,
    record.retryAttempts ?? 0,
  ];
}

const SELECT_ONE = `SELECT ${COLUMNS} FROM webhooks WHERE wallet_id = $1 AND webhook_id = $2`;

export async function findWebhook(sql: Sql, walletId: number, webhookId: string): Promise<WebhookRecord | undefined> {
  const row = await sql.get<WebhookRow>(SELECT_ONE, [walletId, webhookId]);
  return row === undefined ? undefined : fromRow(row);
}

/** The webhook, locked until the unit ends: for a read-modify-write that must not undo a concurrent change. */
export async function findWebhookForUpdate(
  tx: Unit,
  walletId: number,
  webhookId: string,
): Promise<WebhookRecord | undefined> {
  const row = await tx.get<WebhookRow>(`${SELECT_ONE}${tx.locks.forUpdate}`, [walletId, webhookId]);
  return row === undefined ? undefined : fromRow(row);
}

/** A mailbox-mode webhook found by its mailbox id, with its wallet and that wallet's balance. */
export interface MailboxWebhook {
  readonly walletId: number;
  readonly balance: number;
  readonly record: WebhookRecord;
}

// Qualified: `wallets` has columns of the same names (created_at…).
const WEBHOOK_COLUMNS = COLUMNS.split(',')
  .map((column) => `w.${column.trim()}`)
  .join(', ');

/**
 * Inbound mail's recipient lookup: each mailbox's webhook and its wallet's balance, all in one
 * query (an IN list, which both engines take). Unknown mailboxes are simply absent.
 */
export async function findMailboxWebhooks(
  sql: Sql,
  mailboxes: readonly string[],
): Promise<Map<string, MailboxWebhook>> {
  const found = new Map<string, MailboxWebhook>();
  if (mailboxes.length === 0) return found;
  const placeholders = mailboxes.map((_, i) => `$${i + 1}`).join(', ');
  const rows = await sql.all<WebhookRow & { wallet_id: number; balance: number }>(
    `SELECT w.wallet_id, a.balance, ${WEBHOOK_COLUMNS} FROM webhooks w JOIN wallets a ON a.id = w.wallet_id WHERE w.mailbox IN (${placeholders})`,
    mailboxes,
  );
  for (const row of rows) {
    if (row.mailbox !== null)
      found.set(row.mailbox, { walletId: row.wallet_id, balance: row.balance, record: fromRow(row) });
  }
  return found;
}

export async function listWebhooks(sql: Sql, walletId: number): Promise<WebhookRecord[]> {
  const rows = await sql.all<WebhookRow>(
    `SELECT ${COLUMNS} FROM webhooks WHERE wallet_id = $1 ORDER BY created_at, webhook_id`,
    [walletId],
  );
  return rows.map(fromRow);
}

export async function countWebhooks(sql: Sql, walletId: number): Promise<number> {
  const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhooks WHERE wallet_id = $1', [walletId]);
  return Number(row?.n ?? 0);
}

/** Serialises creations of one wallet, so the per-wallet limit holds under concurrency. */
export async function lockWalletWebhooks(tx: Unit, walletId: number): Promise<void> {
  await tx.lockRow('wallets', { id: walletId });
}

export async function insertWebhook(sql: Sql, walletId: number, record: WebhookRecord): Promise<boolean> {
  const placeholders = Array.from({ length: COLUMN_COUNT + 1 }, (_, i) => `$${i + 1}`).join(', ');
  const result = await sql.run(
    `INSERT INTO webhooks (wallet_id, ${COLUMNS}) VALUES (${placeholders}) ON CONFLICT (wallet_id, webhook_id) DO NOTHING`,
    [walletId, ...toParams(record)],
  );
  return result.changes === 1;
}

/** Rewrites every column of an existing webhook (created_at included, unchanged by the caller). */
export async function updateWebhook(sql: Sql, walletId: number, record: WebhookRecord): Promise<void> {
  const assignments = COLUMNS.split(',')
    .map((column) => column.trim())
    .slice(1)
    .map((column, i) => `${column} = $${i + 3}`)
    .join(', ');
  const [webhookId, ...rest] = toParams(record);
  await sql.run(`UPDATE webhooks SET ${assignments} WHERE wallet_id = $1 AND webhook_id = $2`, [
    walletId,
    webhookId,
    ...rest,
  ]);
}

/** The webhook and, with it, whatever of its deliveries was still to be sent (endDeliveriesOf). */
export async function deleteWebhook(store: Store, walletId: number, webhookId: string): Promise<boolean> {
  return store.write(async (tx) => {
    const rows = await tx.all<{ webhook_id: string }>(
      'DELETE FROM webhooks WHERE wallet_id = $1 AND webhook_id = $2 RETURNING webhook_id',
      [walletId, webhookId],
    );
    if (rows.length === 0) return false;
    await endDeliveriesOf(tx, walletId, webhookId);
    return true;
  });
}
