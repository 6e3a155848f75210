import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, linkSync, lstatSync, openSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** Larger than any database: the whole copy is one backup step, so one read snapshot (see below). */
const ALL_PAGES = 0x7fffffff;

/** Files SQLite may create beside the copy while it writes and checks it; they share its random name. */
const SIDE_FILES = ['-journal', '-wal', '-shm'] as const;

/**
 * A new, empty file of mode 0600 in the target's directory, under a name nobody can guess. O_EXCL refuses any
 * name that exists, a planted symbolic link included, so nothing is ever written through one.
 */
function createPartial(target: string): { path: string; fd: number } {
  const path = join(dirname(target), `.${basename(target)}.partial-${randomBytes(12).toString('hex')}`);
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    PRIVATE_FILE_MODE,
  );
  // The umask may only have narrowed it; exactly 0600, so SQLite's side files get the same.
  fchmodSync(fd, PRIVATE_FILE_MODE);
  return { path, fd };
}

/** The name still leads to the file created for the copy (SQLite opens it by name), not to one put there since. */
function assertSameFile(path: string, fd: number): void {
  const created = fstatSync(fd);
  const named = lstatSync(path);
  if (!named.isFile() || named.ino !== created.ino || named.dev !== created.dev)
    throw new Error(`${path} was replaced while the copy was written`);
}

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup API while other processes
 * read and write it. One step copies every page inside one read transaction: in WAL mode that snapshot does not
 * block the service's writer, and no write can restart the copy (a copy in small steps restarts whenever another
 * connection writes, so under steady load it might never end). The copy holds signing secrets: it is written,
 * mode 0600, to a fresh randomly named file beside `target` and linked into place only when complete and checked.
 * A link never replaces a name that exists, so a file or symbolic link that appeared at `target` meanwhile is
 * refused (EEXIST), never followed nor overwritten.
 */
export async function backupSqliteFile(source: string, target: string): Promise<{ pages: number }> {
  const partial = createPartial(target);
  let db: Database.Database | undefined;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(partial.path, { progress: () => ALL_PAGES });
    const copy = new Database(partial.path, { fileMustExist: true });
    let check: unknown;
    try {
      // The pages say WAL, like the source's; a backup is one self-contained file (the service turns WAL on again).
      copy.pragma('journal_mode = DELETE');
      check = copy.pragma('quick_check', { simple: true });
    } finally {
      copy.close();
    }
    if (check !== 'ok') throw new Error(`the copy failed SQLite's quick_check: ${String(check)}`);
    assertSameFile(partial.path, partial.fd);
    linkSync(partial.path, target);
    return { pages: totalPages };
  } finally {
    db?.close();
    closeSync(partial.fd);
    rmSync(partial.path, { force: true });
    for (const suffix of SIDE_FILES) rmSync(`${partial.path}${suffix}`, { force: true });
  }
}
