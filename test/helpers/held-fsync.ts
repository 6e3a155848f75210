import { fsync as fsyncFile } from 'node:fs';
import type { FsyncFunction } from '../../src/store/sqlite/wal-sync.js';

/** An fsync the test completes by hand; it really fsyncs when released, so the file state stays honest. */
export function heldFsync() {
  const waiting: Array<(error: NodeJS.ErrnoException | null) => void> = [];
  let released = false;
  const fsync: FsyncFunction = (fd, callback) => {
    if (released) fsyncFile(fd, callback);
    else waiting.push(callback);
  };
  return {
    fsync,
    get calls() {
      return waiting.length;
    },
    complete(index: number, error: NodeJS.ErrnoException | null = null) {
      (waiting[index] as (error: NodeJS.ErrnoException | null) => void)(error);
    },
    /** From now on a real fsync (so the store can close, or a test can set up before holding). */
    release() {
      released = true;
    },
    /** From now on fsyncs wait for `complete` again. */
    hold() {
      released = false;
    },
  };
}
