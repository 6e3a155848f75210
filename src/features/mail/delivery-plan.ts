import { logId } from '../../lib/ids.js';
import { isoTime } from '../../lib/time.js';
import { TemplateTooLarge, formatEmail, jsonStringBytes } from '../../formats/index.js';
import type { MailboxMode, WebhookRecord } from '../webhooks/index.js';
import { attachmentUrl } from './attachment-links.js';
import {
  COST_WITH_ATTACHMENTS,
  COST_WITHOUT_ATTACHMENTS,
  DOWNLOAD_URL_TTL_MS,
  PAYLOAD_MAX_BYTES,
} from './mail-limits.js';
import type { AttachmentRow } from './mail.queries.js';
import type { ParsedMessage } from './mime-parse.js';
import { buildPayload, payloadText } from './payload.js';
import type { DeliveredAttachment, MessageContext } from './payload.js';
import { applySizeRule, capForTemplate } from './size-rule.js';

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
}

export interface PlanTarget {
  readonly mailbox: string;
  readonly walletId: number;
  readonly record: WebhookRecord;
  readonly mode: MailboxMode;
  /** The download-URL key; needed when any attachment content was kept. */
  readonly key?: Buffer;
}

/** The body of one mailbox cannot be made within its byte budget: that mailbox is skipped, uncharged. */
export class BodyTooLarge extends Error {
  constructor(
    readonly maxBytes: number,
    options?: { cause?: unknown },
  ) {
    super(`the delivered body cannot fit in ${maxBytes} bytes`, options);
    this.name = 'BodyTooLarge';
  }
}

/**
 * What every mailbox of one message shares, made once: the payload text (an HTML-only mail is
 * converted once, not per mailbox) and the JSON sizes of the big strings.
 */
export class MessageWork {
  readonly text: string;
  private readonly sizes = new Map<string, number>();
  private readonly attachmentIds = new Map<string, string>();

  constructor(readonly parsed: ParsedMessage) {
    this.text = payloadText(parsed);
  }

  /**
   * The stored copy's id of attachment `index` for `walletId`: one per wallet and attachment, however many of the
   * wallet's mailboxes the message went to (their links share it; the unit that records the message stores it once).
   */
  attachmentId(walletId: number, index: number): string {
    const key = `${walletId}:${index}`;
    let id = this.attachmentIds.get(key);
    if (id === undefined) {
      id = logId();
      this.attachmentIds.set(key, id);
    }
    return id;
  }

  readonly measure = (s: string): number => {
    if (s.length < 4096) return jsonStringBytes(s);
    let bytes = this.sizes.get(s);
    if (bytes === undefined) {
      bytes = jsonStringBytes(s);
      this.sizes.set(s, bytes);
    }
    return bytes;
  };
}

/** Credits one mailbox is charged for the message; known before any body is made. */
export const costOf = (parsed: ParsedMessage, mode: MailboxMode): number =>
  mode.includeAttachments && parsed.attachments.length > 0 ? COST_WITH_ATTACHMENTS : COST_WITHOUT_ATTACHMENTS;

/**
 * `maxBytes` bounds the body in UTF-8 bytes (default and at most the 1 MiB rule): the payload is
 * cut to it before any format but custom applies, a custom template is rendered within it, the chat and
 * PagerDuty formats are far below it by construction. Throws BodyTooLarge when it cannot be met.
 */
export function planDelivery(
  source: ParsedMessage | MessageWork,
  context: MessageContext,
  target: PlanTarget,
  maxBytes = PAYLOAD_MAX_BYTES,
): DeliveryPlan {
  const work = source instanceof MessageWork ? source : new MessageWork(source);
  const { parsed } = work;
  const { mode } = target;
  // includeAttachments false: contents neither stored nor delivered, metadata stripped (as the public service does).
  const withAttachments = mode.includeAttachments && parsed.attachments.length > 0;
  const expiresSeconds = Math.floor((context.receivedAt + DOWNLOAD_URL_TTL_MS) / 1000);
  const rows = new Map<DeliveredAttachment, AttachmentRow>();
  const metadata: DeliveredAttachment[] = [];
  if (withAttachments) {
    for (const [index, attachment] of parsed.attachments.entries()) {
      const meta: DeliveredAttachment = {
        ...(attachment.filename === undefined ? {} : { filename: attachment.filename }),
        contentType: attachment.contentType,
        size: attachment.size,
      };
      if (attachment.content !== undefined && target.key !== undefined) {
        const id = work.attachmentId(target.walletId, index);
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
  const limit = Math.min(maxBytes, PAYLOAD_MAX_BYTES);
  const payload = buildPayload(parsed, context, { mailbox: target.mailbox, attachments: metadata, text: work.text });
  // A custom template is cut as it is rendered, by its own rule (template-engine.ts): the raw payload's rule first
  // would drop the attachments and cut the html a small template uses, though what it renders fits.
  const sized = mode.format === 'custom' ? undefined : applySizeRule(payload, limit, work.measure);
  const delivered = sized?.payload ?? capForTemplate(payload, limit, work.measure);
  const kept = delivered.attachments.flatMap((meta) => {
    const row = rows.get(meta);
    return row === undefined ? [] : [row];
  });
  let body: unknown;
  try {
    body = formatEmail(mode.format, delivered, {
      options: mode.options,
      template: mode.template ?? undefined,
      maxBytes: limit,
    });
  } catch (error) {
    if (error instanceof TemplateTooLarge) throw new BodyTooLarge(limit, { cause: error });
    throw error;
  }
  // Without a format the body is the measured payload: its JSON is already at hand.
  const bodyJson = sized !== undefined && body === sized.payload ? sized.json : (JSON.stringify(body) ?? 'null');
  // Every format is bounded before it is built; this only keeps a mistake from being stored and sent.
  if (Buffer.byteLength(bodyJson, 'utf8') > limit) throw new BodyTooLarge(limit);
  return {
    walletId: target.walletId,
    record: target.record,
    cost: costOf(parsed, mode),
    attachments: kept,
    bodyJson,
  };
}
