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
  /** The first failed fsync. Linux reports a write-back error once and forgets the pages, so every later commit is suspect too. */
  private failure: Error | undefined;

  constructor(
    private readonly walPath: string,
    private readonly fsync: FsyncFunction = fsyncFile,
  ) {}

  /** `done` runs once everything committed before this call is on disk (or the fsync failed). */
  whenDurable(done: SyncCallback): void {
    if (this.failure !== undefined) {
      done(this.failure);
      return;
    }
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
      if (error !== null) this.failure ??= error;
      for (const done of round) done(this.failure ?? null);
      const waiting = this.waiting;
      if (this.failure !== undefined) {
        this.waiting = [];
        for (const done of waiting) done(this.failure);
      } else if (waiting.length > 0) this.start();
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
