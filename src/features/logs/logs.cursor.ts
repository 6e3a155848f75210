/** A place in a wallet's log, newest first: a page holds the entries strictly older than it. */
export interface LogPosition {
  readonly createdAt: number;
  readonly seq: number;
}

/** Before every entry: the first page. */
export const NEWEST: LogPosition = { createdAt: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };

/**
 * A GET /token/logs cursor: a place in a wallet's log, newest first; the next page holds the entries strictly
 * older than (createdAt, seq). Opaque to callers (base64url); seq breaks ties on time, so paging is stable.
 */
export function encodeCursor(position: LogPosition): string {
  return Buffer.from(`${position.createdAt}.${position.seq}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service made. */
export function decodeCursor(cursor: string): LogPosition | undefined {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const createdAt = Number(match[1]);
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(createdAt) || !Number.isSafeInteger(seq)) return undefined;
  const position = { createdAt, seq };
  // Base64url decoding skips what it cannot read: only the exact text this service makes is a cursor.
  return encodeCursor(position) === cursor ? position : undefined;
}
