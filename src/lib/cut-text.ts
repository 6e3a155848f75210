/** What ends a text that was cut. */
export const CUT_MARK = '…';

/**
 * `text` as it is when it has at most `max` UTF-16 code units, else its first `max - 1` followed by `…`
 * (so the result never exceeds `max`). A surrogate pair is never split: its lone first half is dropped too.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - CUT_MARK.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + CUT_MARK;
}
