import type { Sql } from '../store/store.js';

/**
 * Tables holding a wallet's data by `wallet_id`, all removed with the wallet. Features with wallet data add
 * theirs here. stripe_credits stays on purpose: the record of payments.
 */
export const WALLET_DATA_TABLES = [
  'kv',
  'log_batches',
  'webhooks',
  'mail_attachments',
  'inbound_outbox',
  'deliveries',
  'spend_hourly',
] as const;

/**
 * Deletes a wallet and everything it owns in the caller's unit: the rows of WALLET_DATA_TABLES, the attempts
 * of its deliveries and the Message-IDs its mailboxes saw (both keyed otherwise, so removed before their
 * owners). `unusedBefore`: delete only when its last use is older (the idle-wallet sweep re-checks inside the
 * unit, so a wallet used meanwhile survives). Whether the wallet was deleted.
 */
export async function deleteWalletIn(tx: Sql, walletId: number, unusedBefore?: number): Promise<boolean> {
  const gone =
    unusedBefore === undefined
      ? await tx.all<{ id: number }>('DELETE FROM wallets WHERE id = $1 RETURNING id', [walletId])
      : await tx.all<{ id: number }>('DELETE FROM wallets WHERE id = $1 AND last_used_at < $2 RETURNING id', [
          walletId,
          unusedBefore,
        ]);
  if (gone.length === 0) return false;
  await tx.run('DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE wallet_id = $1)', [
    walletId,
  ]);
  await tx.run(
    'DELETE FROM inbound_seen_messages WHERE mailbox IN (SELECT mailbox FROM webhooks WHERE wallet_id = $1 AND mailbox IS NOT NULL)',
    [walletId],
  );
  for (const table of WALLET_DATA_TABLES) await tx.run(`DELETE FROM ${table} WHERE wallet_id = $1`, [walletId]);
  return true;
}
