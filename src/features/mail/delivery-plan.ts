import { logId } from '../../lib/ids.js';
import { isoTime } from '../../lib/time.js';
import { formatEmail } from '../formats/index.js';
import type { MailboxMode, WebhookRecord } from '../webhooks/webhook-record.js';
import { attachmentUrl } from './attachment-links.js';
import { COST_WITH_ATTACHMENTS, COST_WITHOUT_ATTACHMENTS, DOWNLOAD_URL_TTL_MS, PAYLOAD_MAX_BYTES } from './mail-limits.js';
import type { AttachmentRow } from './mail.queries.js';
import type { ParsedMessage } from './mime-parse.js';
import { buildPayload } from './payload.js';
import type { DeliveredAttachment, MessageContext } from './payload.js';
import { applySizeRule } from './size-rule.js';

/**
 * What one message means for one mailbox: the cost, the attachments to store, and the body to POST
 * (the payload after the 1 MiB rule, then the webhook's format). Pure apart from random ids.
 */
export interface DeliveryPlan {
  readonly walletId: number;
  readonly record: WebhookRecord;
  readonly cost: number;
  /** Only the attachments whose metadata is in the delivered payload. */
  readonly attachments: readonly AttachmentRow[];
  /** The body as JSON, serialised once: stored in the outbox, signed and sent byte for byte. */
  readonly bodyJson: string;
  readonly truncated: boolean;
}

export interface PlanTarget {
  readonly mailbox: string;
  readonly walletId: number;
  readonly record: WebhookRecord;
  readonly mode: MailboxMode;
  /** The download-URL key; needed when any attachment content was kept. */
  readonly key?: Buffer;
}

export function planDelivery(parsed: ParsedMessage, context: MessageContext, target: PlanTarget): DeliveryPlan {
  const { mode } = target;
  // includeAttachments false: contents neither stored nor delivered, metadata stripped (as the public service does).
  const withAttachments = mode.includeAttachments && parsed.attachments.length > 0;
  const expiresSeconds = Math.floor((context.receivedAt + DOWNLOAD_URL_TTL_MS) / 1000);
  const rows = new Map<DeliveredAttachment, AttachmentRow>();
  const metadata: DeliveredAttachment[] = [];
  if (withAttachments) {
    for (const attachment of parsed.attachments) {
      const meta: DeliveredAttachment = {
        ...(attachment.filename === undefined ? {} : { filename: attachment.filename }),
        contentType: attachment.contentType,
        size: attachment.size,
      };
      if (attachment.content !== undefined && target.key !== undefined) {
        const id = logId();
        meta.downloadUrl = attachmentUrl(context.publicUrl, target.key, id, expiresSeconds);
        meta.downloadUrlExpiresAt = isoTime(expiresSeconds * 1000);
        rows.set(meta, {
          id,
          walletId: target.walletId,
          filename: attachment.filename ?? null,
          contentType: attachment.contentType,
          content: attachment.content,
          expiresAt: expiresSeconds * 1000,
        });
      }
      if (attachment.contentId !== undefined) meta.contentId = attachment.contentId;
      metadata.push(meta);
    }
  }
  const sized = applySizeRule(buildPayload(parsed, context, target.mailbox, metadata), PAYLOAD_MAX_BYTES);
  const kept = sized.payload.attachments.flatMap((meta) => {
    const row = rows.get(meta);
    return row === undefined ? [] : [row];
  });
  const body = formatEmail(mode.format, sized.payload, { options: mode.options, template: mode.template ?? undefined });
  return {
    walletId: target.walletId,
    record: target.record,
    cost: withAttachments ? COST_WITH_ATTACHMENTS : COST_WITHOUT_ATTACHMENTS,
    attachments: kept,
    // Without a format the body is the measured payload: its JSON is already at hand.
    bodyJson: body === sized.payload ? sized.json : (JSON.stringify(body) ?? 'null'),
    truncated: sized.truncated,
  };
}
