import Database from 'better-sqlite3';

/** The lock of each database this process serves, kept open (and referenced) for the life of the process. */
const held = new Map<string, Database.Database>();

/**
 * One process serves an SQLite database: a second would keep its own read cache, group commit and workers beside
 * the first (reads of values since changed, scheduled runs made twice). The lock is SQLite's own, an exclusive lock
 * on a small file beside the database (`<file>-instance`), held for the life of the process: the kernel lets go of
 * it when the process ends, however it ends. False when another process holds it.
 */
export function holdSqliteInstanceLock(databasePath: string): boolean {
  if (held.has(databasePath)) return true;
  // No busy wait: another process's lock is an answer, not a moment to wait through.
  const lock = new Database(`${databasePath}-instance`, { timeout: 0 });
  try {
    // Nothing is ever written to it: no journal file beside it.
    lock.pragma('journal_mode = MEMORY');
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
  held.set(databasePath, lock);
  return true;
}
