import { decodePairCursor, encodePairCursor } from '../../lib/pair-cursor.js';

/** A place in a wallet's log, newest first: a page holds the entries strictly older than it. */
export interface LogPosition {
  readonly createdAt: number;
  readonly seq: number;
}

/** Before every entry: the first page. */
export const NEWEST: LogPosition = { createdAt: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };

/**
 * A GET /token/logs cursor: a place in a wallet's log, newest first; the next page holds the entries strictly
 * older than (createdAt, seq). Opaque to callers; seq breaks ties on time, so paging is stable.
 */
export const encodeCursor = (position: LogPosition): string => encodePairCursor(position.createdAt, position.seq);

/** The position a cursor names, or undefined when it is not one this service made. */
export function decodeCursor(cursor: string): LogPosition | undefined {
  const pair = decodePairCursor(cursor);
  return pair === undefined ? undefined : { createdAt: pair[0], seq: pair[1] };
}
