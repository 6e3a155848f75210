import { closeSync, fsync as fsyncFile, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type SyncCallback = (error: Error | null) => void;
export type FsyncFunction = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;

/**
 * Makes SQLite commits durable without blocking the event loop. The writer connection runs with
 * `synchronous=NORMAL`, so COMMIT only hands the WAL frames to the OS; this then fsyncs the WAL file
 * on the libuv thread pool and tells every commit made before the fsync started that it is on disk.
 * Commits arriving while an fsync runs wait for the next one, which covers all of them: one fsync per
 * round, however many commits, and the event loop keeps serving requests meanwhile.
 * (fsync flushes the file, not the descriptor, so our own read-only descriptor of the WAL suffices.)
 */
export class WalSync {
  private fd: number | undefined;
  private waiting: SyncCallback[] = [];
  private syncing = false;

  constructor(
    private readonly walPath: string,
    private readonly fsync: FsyncFunction = fsyncFile,
  ) {}

  /** `done` runs once everything committed before this call is on disk (or the fsync failed). */
  whenDurable(done: SyncCallback): void {
    this.waiting.push(done);
    if (!this.syncing) this.start();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private start(): void {
    const round = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      fd = this.descriptor();
    } catch (error) {
      for (const done of round) done(error as Error);
      return;
    }
    this.syncing = true;
    this.fsync(fd, (error) => {
      this.syncing = false;
      for (const done of round) done(error);
      if (this.waiting.length > 0) this.start();
    });
  }

  /** Opened on first use: the WAL file exists once the first commit has written to it. */
  private descriptor(): number {
    if (this.fd === undefined) {
      this.fd = openSync(this.walPath, 'r');
      // The WAL's directory entry must survive a power cut too.
      const directory = openSync(dirname(this.walPath), 'r');
      try {
        fsyncSync(directory);
      } finally {
        closeSync(directory);
      }
    }
    return this.fd;
  }
}
