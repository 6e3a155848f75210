/**
 * The opaque cursor of a paged list ordered by two non-negative integers (a time or a sort value, and what breaks
 * its ties): base64url of `a.b`. Decoding accepts only the exact text encoding makes, so a forged or stale cursor
 * is refused (a 400), never turned into a query; its work is linear in its length, which the query string bounds.
 */
export function encodePairCursor(first: number, second: number): string {
  return Buffer.from(`${first}.${second}`, 'utf8').toString('base64url');
}

export function decodePairCursor(cursor: string): readonly [number, number] | undefined {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const first = Number(match[1]);
  const second = Number(match[2]);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second)) return undefined;
  // Base64url decoding skips what it cannot read: only the exact text this service makes is a cursor.
  return encodePairCursor(first, second) === cursor ? [first, second] : undefined;
}
