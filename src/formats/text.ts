/**
 * Length limits and markup escaping for chat messages.
 *
 * "Characters" here are UTF-16 code units (JavaScript `length`). Every platform
 * counts in code units or in code points, and a code-unit count is never lower
 * than a code-point count, so staying under a limit in code units stays under it
 * on every platform.
 */

export const ELLIPSIS = '…';

/** Slack (mrkdwn) and Telegram (parse_mode HTML) require exactly these three escaped. */
const MARKUP_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export const escapeMarkup = (text: string): string => text.replace(/[&<>]/g, (c) => MARKUP_ENTITIES[c] ?? c);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Largest index ≤ `index` where `text` may be cut: never between the halves of a
 * surrogate pair, and where possible not inside an emoji sequence or before a
 * combining mark. Only a window around the cut is segmented, so cutting a 1 MiB
 * body costs the same as cutting a short one.
 */
export function safeCutIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  let start = Math.max(0, index - 64);
  if (isLowSurrogate(text.charCodeAt(start))) start -= 1;
  let cut = start;
  for (const { index: at } of graphemes.segment(text.slice(start, index + 1))) {
    if (start + at > index) break;
    cut = start + at;
  }
  // A cluster longer than the window (pathological combining runs): fall back to
  // the guarantee that matters for validity, never splitting a surrogate pair.
  if (cut === start && start > 0) cut = isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
  return cut;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

export interface TruncateOptions {
  /** Count and return the text with `escapeMarkup` applied; the cut happens before escaping, so an entity is never split. */
  escape?: boolean;
}

/**
 * `text` (escaped when asked) if it fits in `max` characters, otherwise the longest
 * prefix that fits together with a trailing `…`.
 */
export function truncate(text: string, max: number, options: TruncateOptions = {}): string {
  const escape = options.escape === true;
  const render = escape ? escapeMarkup : (s: string): string => s;
  if (max <= 0) return '';
  // Only a prefix can matter: a text over `max` units is over the limit escaped or not.
  if (text.length <= max && renderedLength(text, escape) <= max) return render(text);
  const budget = max - ELLIPSIS.length;
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const width = escape ? (MARKUP_ENTITIES[text.charAt(end)]?.length ?? 1) : 1;
    if (used + width > budget) break;
    used += width;
    end += 1;
  }
  return render(text.slice(0, safeCutIndex(text, end)).trimEnd()) + ELLIPSIS;
}

function renderedLength(text: string, escape: boolean): number {
  if (!escape) return text.length;
  let length = 0;
  for (let i = 0; i < text.length; i += 1) length += MARKUP_ENTITIES[text.charAt(i)]?.length ?? 1;
  return length;
}

/** `text` cut to at most `max` units plus "…" when longer; cheap whatever the length (no scan). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, safeCutIndex(text, max))}${ELLIPSIS}`;
}

/**
 * Longest header-like value (subject, display name) ever put on one line: above every
 * cap it is cut to (the largest is PagerDuty's 1024-character summary).
 */
export const SINGLE_LINE_MAX = 4096;

/**
 * Header-like values (subject, display name) must stay on one line in a chat title:
 * every whitespace run holding a line break becomes one space. A value longer than
 * SINGLE_LINE_MAX is cut first and ends in "…", so a 1 MiB subject costs no more
 * than a short one. `\s+` alone cannot backtrack (the old `\s*[\r\n]+\s*` was
 * quadratic on long whitespace runs).
 */
export function singleLine(text: string): string {
  const long = text.length > SINGLE_LINE_MAX;
  const head = long ? text.slice(0, safeCutIndex(text, SINGLE_LINE_MAX)) : text;
  const line = head.replace(/\s+/g, (run) => (run.includes('\n') || run.includes('\r') ? ' ' : run)).trim();
  return long ? `${line}${ELLIPSIS}` : line;
}
