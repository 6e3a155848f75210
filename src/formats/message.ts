import { htmlToText } from './html-text.js';
import type { EmailAddress, InboundEmailPayload, LowBalanceEvent } from './payloads.js';
import { ELLIPSIS, SINGLE_LINE_MAX, clip, safeCutIndex, singleLine } from './text.js';

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

/** `bodyMax`: the largest body any chat format keeps; only that much of the text is prepared. */
export function emailMessage(payload: InboundEmailPayload, bodyMax?: number): ChatMessage {
  return { title: subjectOf(payload), line: `From: ${senderOf(payload.from)}`, body: plainBody(payload, bodyMax) };
}

export const subjectOf = (payload: InboundEmailPayload): string => singleLine(payload.subject) || NO_SUBJECT;

/** `Name <email>`, or the bare address when the sender gave no name. */
export function senderOf(from: EmailAddress): string {
  const name = singleLine(from.name ?? '');
  const email = clip(from.email, SINGLE_LINE_MAX);
  return name === '' ? email : `${name} <${email}>`;
}

/**
 * The `text` part, or the HTML part reduced to text when the mail has no usable text part.
 * With `max`, a text longer than twice that is cut before its line breaks are normalised and
 * ends in "…", so the caller's own cut to `max` still shows the text was longer.
 */
export function plainBody(payload: InboundEmailPayload, max = Infinity): string {
  let text = payload.text.trim();
  if (text.length > 2 * max) text = `${text.slice(0, safeCutIndex(text, 2 * max)).trimEnd()}${ELLIPSIS}`;
  text = text.replace(/\r\n?/g, '\n');
  if (text !== '' || payload.html === undefined) return text;
  return htmlToText(payload.html);
}

export const lowBalanceSentence = (event: LowBalanceEvent): string =>
  `Wallet balance ${event.wallet} is at or below the threshold ${event.threshold}.`;

/** Where to add credits; the base URL is known only to the caller's config. */
export function rechargeHint(publicUrl?: string): string {
  return `Recharge: GET ${withoutTrailingSlashes(publicUrl ?? '')}/recharge`;
}

export function lowBalanceMessage(event: LowBalanceEvent, publicUrl?: string): ChatMessage {
  return { title: 'Low balance', line: lowBalanceSentence(event), body: rechargeHint(publicUrl) };
}

/** A loop, not `/\/+$/`: that pattern is quadratic on a long run of slashes not at the end. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end -= 1;
  return url.slice(0, end);
}
