/**
 * Page positions of the operator API's lists: a sort value and the id that breaks its ties, as opaque
 * base64url JSON. Undefined for anything else, so a forged or stale cursor is a 400, never a query.
 */
export function encodeCursor(value: number, id: number): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { value: number; id: number } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((n) => Number.isSafeInteger(n))) return undefined;
  const [value, id] = parsed as [number, number];
  return { value, id };
}
