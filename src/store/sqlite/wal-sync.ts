import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type SyncCallback = (error: Error | null) => void;
export type FsyncFunction = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;
/** Makes a directory's entries durable; throws when it cannot. */
type DirectorySync = (path: string) => void;

function fsyncDirectory(path: string): void {
  const directory = openSync(path, 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}

/**
 * How many fsyncs of the WAL may run at once, unless told otherwise (`WalSyncOptions.slots`). With one, a commit that
 * arrives while an fsync runs waits for it and then for the next, which covers every commit made meanwhile; with two,
 * it starts its own at once: a shorter wait for that commit, but about twice the fsyncs for the same commits, and each
 * costs the service's core ~100 µs of kernel work on a virtual disk. Interleaved A/B at the defaults on a quiet host
 * (bench/RESULTS.md, "Quiet host"): one in flight is 3.9 µs of CPU less per `POST /kv` (+6 % req/s) and 0.6 µs less
 * per `GET /kv`, with the same p99 at 50 connections.
 */
export const FSYNCS_IN_FLIGHT = 1;

export interface WalSyncOptions {
  /**
   * The OS call that makes the WAL durable. fdatasync flushes the data and what is needed to read it back (the size),
   * not the timestamps: what SQLite itself uses on Linux, with less journal work for the kernel on the service's core.
   */
  readonly fsync?: FsyncFunction;
  /** Makes the WAL's directory entry durable (once, before the first fsync). */
  readonly syncDirectory?: DirectorySync;
  /** How many fsyncs may run at once (default FSYNCS_IN_FLIGHT). */
  readonly slots?: number;
}

/**
 * Makes SQLite commits durable without blocking the event loop. The writer connection runs with
 * `synchronous=NORMAL`, so COMMIT only hands the WAL frames to the OS; this then fsyncs the WAL file
 * on the libuv thread pool and tells every commit made before the fsync started that it is on disk.
 * Commits arriving while every slot's fsync runs wait for the next one, which covers all of them,
 * and the event loop keeps serving requests meanwhile.
 * With more than one slot, each has its own read-only descriptor of the WAL: fsync flushes the file, not
 * the descriptor, but Linux reports a write-back error once per open file, so two fsyncs sharing one
 * descriptor could see one failure between them and the other would acknowledge lost writes.
 */
export class WalSync {
  /** One per slot, opened together on first use. */
  private descriptors: readonly number[] | undefined;
  private readonly slots: number;
  private readonly freeSlots: number[];
  private readonly fsync: FsyncFunction;
  private readonly syncDirectory: DirectorySync;
  private waiting: SyncCallback[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** The first failed fsync. Linux reports a write-back error once and forgets the pages, so every later commit is suspect too. */
  private failure: Error | undefined;

  constructor(
    private readonly walPath: string,
    options: WalSyncOptions = {},
  ) {
    this.slots = options.slots ?? FSYNCS_IN_FLIGHT;
    this.freeSlots = Array.from({ length: this.slots }, (_, slot) => slot);
    this.fsync = options.fsync ?? fdatasync;
    this.syncDirectory = options.syncDirectory ?? fsyncDirectory;
  }

  /** `done` runs once everything committed before this call is on disk (or the fsync failed). */
  whenDurable(done: SyncCallback): void {
    if (this.failure !== undefined) {
      done(this.failure);
      return;
    }
    if (this.closed) {
      done(new Error('the WAL sync is closed'));
      return;
    }
    this.waiting.push(done);
    const slot = this.freeSlots.pop();
    if (slot !== undefined) this.start(slot);
  }

  /** `done` runs once no fsync is running or waiting, so the descriptors can be closed under none. */
  whenIdle(done: () => void): void {
    if (this.freeSlots.length === this.slots) done();
    else this.idleWaiters.push(done);
  }

  /**
   * Refuses later commits; the descriptors close once no fsync uses them (an fsync on a closed, or reused,
   * descriptor would fail, or falsely pass, the writes it covered). Callers wait with `whenIdle` first.
   */
  close(): void {
    this.closed = true;
    if (this.freeSlots.length === this.slots) this.closeDescriptors();
  }

  private closeDescriptors(): void {
    for (const fd of this.descriptors ?? []) closeSync(fd);
    this.descriptors = undefined;
  }

  private start(slot: number): void {
    const round = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      fd = this.descriptor(slot);
    } catch (error) {
      this.release(slot);
      for (const done of round) done(error as Error);
      return;
    }
    this.fsync(fd, (error) => {
      if (error !== null) this.failure ??= error;
      for (const done of round) done(this.failure ?? null);
      const waiting = this.waiting;
      if (this.failure === undefined && waiting.length > 0) {
        this.start(slot);
        return;
      }
      this.waiting = [];
      for (const done of waiting) done(this.failure ?? null); // only when failed: else `waiting` is empty
      this.release(slot);
    });
  }

  /** A slot is free again; when all are, the idle waiters run, one at a time while that still holds. */
  private release(slot: number): void {
    this.freeSlots.push(slot);
    while (this.freeSlots.length === this.slots && this.idleWaiters.length > 0)
      (this.idleWaiters.shift() as () => void)();
    if (this.closed && this.freeSlots.length === this.slots) this.closeDescriptors();
  }

  /**
   * All opened together on first use (the WAL file exists once the first commit has written to it), so
   * every descriptor hears of any write-back error from then on.
   */
  private descriptor(slot: number): number {
    this.descriptors ??= this.openDescriptors();
    return this.descriptors[slot] as number;
  }

  private openDescriptors(): number[] {
    const opened: number[] = [];
    try {
      for (let i = 0; i < this.slots; i++) opened.push(openSync(this.walPath, 'r'));
      // The WAL's directory entry must survive a power cut too; a failed fsync of it is as final as one of the WAL.
      try {
        this.syncDirectory(dirname(this.walPath));
      } catch (error) {
        this.failure ??= error as Error;
        throw error;
      }
    } catch (error) {
      for (const fd of opened) closeSync(fd);
      throw error;
    }
    return opened;
  }
}
