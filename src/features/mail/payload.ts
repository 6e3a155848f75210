import { isoTime } from '../../lib/time.js';
import { htmlToText } from '../../formats/index.js';
import type { AttachmentMeta, EmailAddress, InboundEmailPayload } from '../../formats/index.js';
import type { ParsedMessage } from './mime-parse.js';

/** Builds the inbound e-mail payload (docs/contract.md#inbound-e-mail) for one recipient mailbox from a parsed message. */

export interface MessageContext {
  readonly externalMessageId: string;
  /** End of DATA (or of the relay's request), epoch ms. */
  readonly receivedAt: number;
  /** `smtp` for the listener, the relay's name for /inbound/raw (docs/contract.md#inbound-e-mail). */
  readonly provider: string;
  readonly publicUrl: string;
  readonly mailDomain: string;
  /** MAIL FROM; empty for the null sender. */
  readonly envelopeFrom: string;
  readonly size: number;
  readonly remoteAddress?: string;
  readonly heloName?: string;
}

/** Attachment metadata as delivered; `contentId` (beyond the contract) lets `cid:` links in `html` be matched. */
export type DeliveredAttachment = AttachmentMeta & { contentId?: string };

/** The Message-ID without its angle brackets, or a fresh id when the message has none. */
export function messageIdOf(parsed: ParsedMessage, fallback: () => string): string {
  const given = (parsed.messageId ?? '').trim();
  // Plain string tests, not a regular expression: the header is the sender's.
  const id = (given.length >= 2 && given.startsWith('<') && given.endsWith('>') ? given.slice(1, -1) : given).trim();
  return id === '' ? fallback() : id;
}

/** Header lines as an object; a name that occurs several times keeps every value, in order. */
export function headerObject(headers: ParsedMessage['headers']): Record<string, string | string[]> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const values = grouped.get(name);
    if (values === undefined) grouped.set(name, [value]);
    else values.push(value);
  }
  // fromEntries defines own properties, so a header named `__proto__` stays a plain key.
  return Object.fromEntries(
    [...grouped].map(([name, values]) => [name, values.length === 1 ? (values[0] as string) : values]),
  );
}

/** One mailbox's copy: its address, its attachments' metadata, and `text` (payloadText(parsed), made once per message when many mailboxes receive it). */
export interface PayloadDelivery {
  readonly mailbox: string;
  readonly attachments: DeliveredAttachment[];
  readonly text?: string | undefined;
}

export function buildPayload(
  parsed: ParsedMessage,
  context: MessageContext,
  delivery: PayloadDelivery,
): InboundEmailPayload {
  const { mailbox, attachments, text = payloadText(parsed) } = delivery;
  const address = `${mailbox}@${context.mailDomain}`;
  const from: EmailAddress = parsed.from[0] ?? { email: context.envelopeFrom };
  return {
    externalMessageId: context.externalMessageId,
    receivedAt: isoTime(context.receivedAt),
    from,
    // A message without To (sent as Bcc) is still addressed to this mailbox.
    to: parsed.to.length > 0 ? parsed.to : [{ email: address }],
    cc: parsed.cc,
    subject: parsed.subject,
    text,
    ...(parsed.html === undefined ? {} : { html: parsed.html }),
    headers: headerObject(parsed.headers),
    attachments,
    provider: context.provider,
    url: `${context.publicUrl}/mailbox/${mailbox}`,
    raw: {
      // Only this recipient: the other envelope recipients are none of this webhook's business (Bcc).
      envelope: { from: context.envelopeFrom, to: [address] },
      size: context.size,
      ...(context.remoteAddress === undefined ? {} : { remoteAddress: context.remoteAddress }),
      ...(context.heloName === undefined ? {} : { helo: context.heloName }),
    },
  };
}

/** The text part; for a message with none (or an empty one), its HTML reduced to text. */
export function payloadText(parsed: ParsedMessage): string {
  const text = parsed.text ?? '';
  if (text.trim() !== '' || parsed.html === undefined) return text;
  return htmlToText(parsed.html);
}
