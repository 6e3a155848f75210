import type { Store } from '../../store/store.js';
import { deleteInBatches, SWEEP_BATCH } from '../../jobs/retention-step.js';
import type { RetentionStep } from '../../jobs/retention-step.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-mail.js';

/** Inbound-mail attachments whose download URL expired: deleted within minutes after (docs/contract.md#inbound-e-mail). */
export function attachmentRetention(store: Store): RetentionStep {
  return {
    name: 'expiredAttachments',
    run: ({ now }) =>
      deleteInBatches(
        store,
        `DELETE FROM mail_attachments WHERE id IN (SELECT id FROM mail_attachments WHERE expires_at <= $1 LIMIT ${SWEEP_BATCH}) RETURNING 1 AS n`,
        [now],
      ),
  };
}

/**
 * Message-IDs inbound mail saw: older than DUPLICATE_WINDOW_MS, they no longer make a repeat (the claim ignores
 * older rows itself, so this only bounds the table). Rows a claim holds are skipped, so the sweep never waits on one.
 */
export function seenMessageRetention(store: Store): RetentionStep {
  return {
    name: 'expiredSeenMessages',
    run: ({ now }) =>
      deleteInBatches(
        store,
        `DELETE FROM inbound_seen_messages WHERE seen_at <= $1 AND (mailbox, message_hash) IN (SELECT mailbox, message_hash FROM inbound_seen_messages WHERE seen_at <= $1 LIMIT ${SWEEP_BATCH}${store.locks.skipLocked()}) RETURNING 1 AS n`,
        [now - DUPLICATE_WINDOW_MS],
      ),
  };
}
