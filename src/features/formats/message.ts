import { htmlToText } from './html-text.js';
import type { EmailAddress, InboundEmailPayload, LowBalanceEvent } from './payloads.js';
import { singleLine } from './text.js';

/**
 * The three-part message every chat format lays out in its own markup:
 * a bold title, one line under it, then the body. Raw text: each format
 * escapes and cuts it to its platform's rules.
 */
export interface ChatMessage {
  title: string;
  line: string;
  body: string;
}

export const NO_SUBJECT = '(no subject)';

export function emailMessage(payload: InboundEmailPayload): ChatMessage {
  return { title: subjectOf(payload), line: `From: ${senderOf(payload.from)}`, body: plainBody(payload) };
}

export const subjectOf = (payload: InboundEmailPayload): string => singleLine(payload.subject) || NO_SUBJECT;

/** `Name <email>`, or the bare address when the sender gave no name. */
export function senderOf(from: EmailAddress): string {
  const name = singleLine(from.name ?? '');
  return name === '' ? from.email : `${name} <${from.email}>`;
}

/** The `text` part, or the HTML part reduced to text when the mail has no usable text part. */
export function plainBody(payload: InboundEmailPayload): string {
  const text = payload.text.replace(/\r\n?/g, '\n').trim();
  if (text !== '' || payload.html === undefined) return text;
  return htmlToText(payload.html);
}

export const lowBalanceSentence = (event: LowBalanceEvent): string =>
  `Wallet balance ${event.wallet} is at or below the threshold ${event.threshold}.`;

/** Where to add credits; the base URL is known only to the caller's config. */
export function rechargeHint(publicUrl?: string): string {
  return `Recharge: GET ${(publicUrl ?? '').replace(/\/+$/, '')}/recharge`;
}

export function lowBalanceMessage(event: LowBalanceEvent, publicUrl?: string): ChatMessage {
  return { title: 'Low balance', line: lowBalanceSentence(event), body: rechargeHint(publicUrl) };
}
