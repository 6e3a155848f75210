/**
 * The store could not be reached (connection refused, lost, or not answering in time). Callers cannot
 * tell whether a write in flight committed; the HTTP layer answers 503 and background work retries later.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * SQLSTATE classes and codes that mean "the database is not there for us right now", not "this statement
 * is wrong": connection exceptions (08), authentication refused (28: a password changed under a running
 * service), operator intervention (57P01-57P05: shutdown, crash, starting, database dropped, idle session
 * ended), too many connections (53300), a statement cancelled by its timeout (57014), a database that
 * no longer exists (3D000) or does not accept connections now (55000, `ALLOW_CONNECTIONS false`). At start,
 * the ones a setting must fix end the start instead (startup-checks.ts).
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '53300', '57014', '3D000', '55000']);
/**
 * Socket-level failures node reports while connecting or talking to the server, and the disk refusing
 * SQLite's writes or their fsync (full, quota, I/O error).
 */
const SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EIO',
  'ENOSPC',
  'EDQUOT',
]);
/** node-postgres's message for a statement past its client-side bound (the store's deadlines give the same). */
export const READ_TIMEOUT_MESSAGE = 'Query read timeout';
/** node-postgres reports these without a code. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  READ_TIMEOUT_MESSAGE,
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
];

/** True when `error` says the store is away or cannot write (rather than that a statement was wrong). */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || code.startsWith('28') || UNAVAILABLE_CODES.has(code) || SYSTEM_CODES.has(code))
  )
    return true;
  if (typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'))) return true;
  return DRIVER_MESSAGES.some((message) => error.message.includes(message));
}

/** The error as callers should see it: connection failures become StoreUnavailableError, others stay as they are. */
export const asStoreError = (error: unknown): unknown =>
  isStoreUnavailable(error) && !(error instanceof StoreUnavailableError) ? new StoreUnavailableError(error) : error;
