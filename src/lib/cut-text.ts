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

/** How many characters of a user's name an error message quotes: enough to find it, never a whole 64 KiB of it. */
const QUOTED_NAME_CHARS = 40;

/**
 * A user-given name (a header name, an option key) as an error message quotes it: its first 40 characters, counted in
 * code points as the limits are, followed by `…` when it goes on. Walks only those 40, whatever the name's length.
 */
export function quotedName(name: string): string {
  let taken = 0;
  let end = 0;
  for (const point of name) {
    if (taken === QUOTED_NAME_CHARS) return name.slice(0, end) + CUT_MARK;
    taken += 1;
    end += point.length;
  }
  return name;
}
