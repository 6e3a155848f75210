import { linkSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Larger than any database: the whole copy is one backup step, so one read snapshot (see below). */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup API while other processes
 * read and write it. One step copies every page inside one read transaction: in WAL mode that snapshot does not
 * block the service's writer, and no write can restart the copy (a copy in small steps restarts whenever another
 * connection writes, so under steady load it might never end). The copy is written beside `target` and linked
 * into place only when complete and checked, which also refuses to replace a file that appeared meanwhile (EEXIST).
 */
export async function backupSqliteFile(source: string, target: string): Promise<{ pages: number }> {
  const partial = `${target}.partial-${process.pid}`;
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(partial, { progress: () => ALL_PAGES });
    const copy = new Database(partial, { fileMustExist: true });
    let check: unknown;
    try {
      // The pages say WAL, like the source's; a backup is one self-contained file (the service turns WAL on again).
      copy.pragma('journal_mode = DELETE');
      check = copy.pragma('quick_check', { simple: true });
    } finally {
      copy.close();
    }
    if (check !== 'ok') throw new Error(`the copy failed SQLite's quick_check: ${String(check)}`);
    linkSync(partial, target);
    return { pages: totalPages };
  } finally {
    db.close();
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
  }
}
