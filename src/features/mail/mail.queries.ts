import type { Sql } from '../../store/store.js';

/**
 * Store access of inbound mail: stored attachments (migration 6), Message-IDs seen (migration 11); mailboxes are
 * webhooks' (webhooks.queries), the outbox is src/delivery-core/outbox.queries.ts.
 */

export interface AttachmentRow {
  readonly id: string;
  readonly walletId: number;
  readonly filename: string | null;
  readonly contentType: string;
  readonly content: Buffer;
  readonly expiresAt: number;
}

export async function insertAttachment(tx: Sql, row: AttachmentRow): Promise<void> {
  await tx.run(
    'INSERT INTO mail_attachments (id, wallet_id, filename, content_type, size, content, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [row.id, row.walletId, row.filename, row.contentType, row.content.length, row.content, row.expiresAt],
  );
}

export interface StoredAttachment {
  readonly filename: string | null;
  readonly contentType: string;
  readonly content: Buffer;
  readonly expiresAt: number;
}

export async function readAttachment(sql: Sql, id: string): Promise<StoredAttachment | undefined> {
  const row = await sql.get<{
    filename: string | null;
    content_type: string;
    content: Buffer | Uint8Array;
    expires_at: number;
  }>('SELECT filename, content_type, content, expires_at FROM mail_attachments WHERE id = $1', [id]);
  if (row === undefined) return undefined;
  const content = Buffer.isBuffer(row.content) ? row.content : Buffer.from(row.content);
  return { filename: row.filename, contentType: row.content_type, content, expiresAt: row.expires_at };
}

/** A claim of the delivery of the message `messageHash` to `mailbox` at `now`; a claim made before `staleBefore` counts as absent. */
export interface MailboxClaim {
  readonly mailbox: string;
  readonly messageHash: string;
  readonly now: number;
  readonly staleBefore: number;
}

/**
 * Claims the delivery of one message (by its Message-ID hash) to one mailbox (migration 11): true when no
 * delivery of it was claimed since `staleBefore`. Insert-or-ignore on the primary key, in the unit that charges,
 * so of two instances racing on one store only one wins; an older row counts as absent whether or not the
 * sweep has removed it yet.
 */
export async function claimMessageForMailbox(tx: Sql, claim: MailboxClaim): Promise<boolean> {
  const { mailbox, messageHash, now, staleBefore } = claim;
  const result = await tx.run(
    `INSERT INTO inbound_seen_messages (mailbox, message_hash, seen_at) VALUES ($1, $2, $3)
     ON CONFLICT (mailbox, message_hash) DO UPDATE SET seen_at = excluded.seen_at WHERE inbound_seen_messages.seen_at <= $4`,
    [mailbox, messageHash, now, staleBefore],
  );
  return result.changes === 1;
}

/** Of `mailboxes`, those a delivery of the message was claimed for since `staleBefore` (a read that saves work; the claim decides). */
export async function mailboxesThatSaw(
  sql: Sql,
  mailboxes: readonly string[],
  messageHash: string,
  staleBefore: number,
): Promise<Set<string>> {
  if (mailboxes.length === 0) return new Set();
  const placeholders = mailboxes.map((_, i) => `$${i + 3}`).join(', ');
  const rows = await sql.all<{ mailbox: string }>(
    `SELECT mailbox FROM inbound_seen_messages WHERE message_hash = $1 AND seen_at > $2 AND mailbox IN (${placeholders})`,
    [messageHash, staleBefore, ...mailboxes],
  );
  return new Set(rows.map((row) => row.mailbox));
}
