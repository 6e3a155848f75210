import { fsync as fsyncFile } from 'node:fs';
import type { FsyncFunction } from '../../src/store/sqlite/wal-sync.js';

interface Waiting {
  readonly fd: number;
  readonly callback: (error: NodeJS.ErrnoException | null) => void;
  done: boolean;
}

/** An fsync the test completes by hand; it really fsyncs when released, so the file state stays honest. */
export function heldFsync() {
  const waiting: Waiting[] = [];
  let released = false;
  const fsync: FsyncFunction = (fd, callback) => {
    if (released) fsyncFile(fd, callback);
    else waiting.push({ fd, callback, done: false });
  };
  return {
    fsync,
    get calls() {
      return waiting.length;
    },
    /** The descriptor the `index`th held fsync was called on. */
    descriptor(index: number): number {
      return (waiting[index] as Waiting).fd;
    },
    complete(index: number, error: NodeJS.ErrnoException | null = null) {
      const held = waiting[index] as Waiting;
      held.done = true;
      held.callback(error);
    },
    /** From now on a real fsync, and the held ones are carried out (so the store can close, or a test can set up before holding). */
    release() {
      released = true;
      for (const held of waiting) {
        if (held.done) continue;
        held.done = true;
        fsyncFile(held.fd, held.callback);
      }
    },
    /** From now on fsyncs wait for `complete` again. */
    hold() {
      released = false;
    },
  };
}
