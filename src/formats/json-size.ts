/**
 * Sizes of JSON text counted without building it: UTF-8 bytes as JSON.stringify would write them.
 * Used to keep every delivered body within its byte limit before the body exists.
 */

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * Bytes the UTF-16 unit at `i` takes inside a JSON string; a well-formed surrogate pair is one
 * 4-byte character, counted on its high half (its low half then counts 0). No allocation: this
 * runs over up to the whole decoded message.
 */
function unitBytes(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) {
    if (c === 0x22 || c === 0x5c) return 2;
    if (c >= 0x20) return 1;
    return c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
  }
  if (c < 0x800) return 2;
  if (c < 0xd800 || c > 0xdfff) return 3;
  if (c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
  }
  const previous = i > 0 ? s.charCodeAt(i - 1) : 0;
  // A lone surrogate is escaped as \uXXXX.
  return previous >= 0xd800 && previous <= 0xdbff ? 0 : 6;
}

/** UTF-8 bytes of JSON.stringify(s), quotes included. */
export function jsonStringBytes(s: string): number {
  let bytes = 2;
  for (let i = 0; i < s.length; i += 1) bytes += unitBytes(s, i);
  return bytes;
}

/** The longest prefix of `s` (never half a surrogate pair) whose JSON string takes at most `budget` bytes. */
export function fitJsonString(s: string, budget: number): string {
  let bytes = 2;
  let i = 0;
  while (i < s.length) {
    const cost = unitBytes(s, i);
    if (bytes + cost > budget) break;
    bytes += cost;
    // A pair is taken whole: its low half costs nothing.
    i += cost === 4 ? 2 : 1;
  }
  return s.slice(0, i);
}
