import { closeSync, constants, fchmodSync, fstatSync, openSync } from 'node:fs';

/**
 * The SQLite database holds webhook signing secrets and token hashes: its files are the owner's only.
 * SQLite creates the -wal and -shm files with the database file's own mode, so a 0600 database keeps them 0600.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** Files beside the database that hold its pages too. */
const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** A file that had group or other bits, the mode it had, and whether they were removed (only its owner may). */
export interface TightenedFile {
  readonly path: string;
  readonly from: number;
  readonly tightened: boolean;
}

function hasWideBits(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

/** Removes the group and other bits of an open file; through the descriptor, so no other file can take its name meanwhile. */
function tighten(fd: number, path: string, tightened: TightenedFile[]): void {
  const mode = fstatSync(fd).mode & 0o777;
  if (!hasWideBits(mode)) return;
  try {
    fchmodSync(fd, mode & 0o700);
  } catch (error) {
    // Not the file's owner: the service still runs on it as before, and the start log says so.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    tightened.push({ path, from: mode, tightened: false });
    return;
  }
  tightened.push({ path, from: mode, tightened: true });
}

/**
 * Creates the database file at `path` with mode 0600 when it does not exist yet (before SQLite creates it with
 * 0644), and takes the group and other bits off an existing one and its -wal, -shm and -journal files.
 * Returns what it tightened, for the start log.
 */
export function makeDatabasePrivate(path: string): TightenedFile[] {
  const tightened: TightenedFile[] = [];
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    tighten(fd, path, tightened);
  } finally {
    closeSync(fd);
  }
  for (const suffix of SIDE_FILES) {
    let side: number;
    try {
      side = openSync(`${path}${suffix}`, constants.O_RDONLY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      tighten(side, `${path}${suffix}`, tightened);
    } finally {
      closeSync(side);
    }
  }
  return tightened;
}

/** The start log's line for a database file found readable by others. */
export function wideFileMessage(file: TightenedFile): string {
  return file.tightened
    ? `database file was readable by others (mode ${file.from.toString(8)}): now ${(file.from & 0o700).toString(8)}, the owner's only`
    : `database file is readable by others (mode ${file.from.toString(8)}) and could not be tightened (not its owner): chmod 600 it`;
}
