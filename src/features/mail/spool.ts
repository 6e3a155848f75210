import { createReadStream } from 'node:fs';
import { mkdtemp, open, readdir, rm, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';

/**
 * Holds one raw message while it arrives, so a slow sender costs a file handle, not memory: small
 * messages stay in memory, larger ones go to a private temp file (mode 0600 in a 0700 folder) that
 * is deleted as soon as the message has been parsed. Bytes beyond `maxBytes` are counted and dropped.
 */
/** A spooled message as another thread reads it: the file it was written to, or the bytes held in memory. */
export type SpoolSource = { readonly path: string } | { readonly chunks: readonly Uint8Array[] };

/** A SpoolSource as a stream, in whichever thread reads it. */
export function readSpoolSource(source: SpoolSource): Readable {
  if ('path' in source) return createReadStream(source.path, { highWaterMark: 64 * 1024 });
  return Readable.from(
    source.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
    {
      objectMode: false,
    },
  );
}

export class Spool {
  private chunks: Buffer[] = [];
  private memoryBytes = 0;
  private file: { path: string; handle: FileHandle } | undefined;
  private disposed = false;
  private budget: SpoolBudget | undefined;
  /** Bytes of `budget` this spool holds. */
  private taken = 0;
  /** Every byte offered, kept or not. */
  received = 0;
  /** The shared budget ran out while this message arrived: nothing is kept, the sender must try again later. */
  overBudget = false;

  constructor(
    private readonly folder: SpoolFolder,
    private readonly maxBytes: number,
    private readonly memoryLimit: number,
  ) {}

  get oversized(): boolean {
    return this.received > this.maxBytes;
  }

  /** Bytes kept (all of them unless oversized). */
  get size(): number {
    return Math.min(this.received, this.maxBytes);
  }

  /** Counts what this spool keeps against `budget`, shared with other spools. Call before the first write. */
  shareBudget(budget: SpoolBudget): this {
    this.budget = budget;
    return this;
  }

  async write(chunk: Buffer): Promise<void> {
    const room = this.maxBytes - this.received;
    this.received += chunk.length;
    if (room <= 0 || this.overBudget) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (this.budget !== undefined) {
      if (!this.budget.take(kept.length)) {
        // Keeping the rest would break the shared cap: give back what is held now, count the rest unkept.
        this.overBudget = true;
        await this.release();
        return;
      }
      this.taken += kept.length;
    }
    if (this.file === undefined && this.memoryBytes + kept.length <= this.memoryLimit) {
      this.chunks.push(kept);
      this.memoryBytes += kept.length;
      return;
    }
    if (this.file === undefined) {
      const path = this.folder.newPath();
      const handle = await open(path, 'wx', 0o600);
      this.file = { path, handle };
      for (const held of this.chunks) await handle.write(held);
      this.chunks = [];
      this.memoryBytes = 0;
    }
    await this.file.handle.write(kept);
  }

  /**
   * A sink for a stream: `await pipeline(source, spool.writable())`. By default bytes past the limit
   * are drained and counted (SMTP must read the whole DATA before replying 552); with
   * `failWhenOversized` the pipeline fails with SpoolOverflow at once instead (HTTP answers 413).
   */
  writable(options: { failWhenOversized?: boolean } = {}): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.write(chunk).then(
          () => callback(options.failWhenOversized === true && this.oversized ? new SpoolOverflow() : undefined),
          callback,
        );
      },
    });
  }

  /**
   * Where the kept bytes are, from the start, for any thread to read (readSpoolSource): its temp file, or the bytes
   * held in memory. Call once writing is over.
   */
  source(): SpoolSource {
    return this.file === undefined ? { chunks: this.chunks } : { path: this.file.path };
  }

  /** Forgets the message: the temp file is closed and deleted. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.release();
  }

  private async release(): Promise<void> {
    this.chunks = [];
    this.memoryBytes = 0;
    this.budget?.give(this.taken);
    this.taken = 0;
    const file = this.file;
    this.file = undefined;
    if (file !== undefined) {
      await file.handle.close().catch(() => undefined);
      await unlink(file.path).catch(() => undefined);
    }
  }
}

/**
 * Bytes that the spools sharing it may hold at once (memory and temp files alike), so many slow senders
 * together cannot fill the disk: a spool that would go past it keeps nothing more (`overBudget`).
 */
export class SpoolBudget {
  private held = 0;

  constructor(readonly capBytes: number) {}

  get heldBytes(): number {
    return this.held;
  }

  get exhausted(): boolean {
    return this.held >= this.capBytes;
  }

  /** Whether `bytes` more would stay within the cap now. */
  fits(bytes: number): boolean {
    return this.held + bytes <= this.capBytes;
  }

  take(bytes: number): boolean {
    if (!this.fits(bytes)) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

export class SpoolOverflow extends Error {
  constructor() {
    super('message larger than the limit');
    this.name = 'SpoolOverflow';
  }
}

/**
 * Spool folders are named `coinop-spool-<host>-<pid>-<random>` in the temp directory: `host` (a hash of the
 * host name) keeps the judgement below to folders of this machine or container, `pid` says whose it is.
 */
const FOLDER_PREFIX = 'coinop-spool-';

function hostTag(): string {
  return createHash('sha256').update(hostname()).digest('hex').slice(0, 12);
}

/** Whether a process with this id runs (EPERM: it does, under another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A private folder for spool files, removed with everything in it on close. */
export class SpoolFolder {
  private constructor(private readonly path: string) {}

  static async create(): Promise<SpoolFolder> {
    return new SpoolFolder(await mkdtemp(join(tmpdir(), `${FOLDER_PREFIX}${hostTag()}-${process.pid}-`)));
  }

  /**
   * Removes the spool folders a crashed process left behind (messages it never answered 250 for, so their
   * senders retry): those of this host whose process no longer runs, or that carry this process's own id (a
   * container restarted after a crash gets the same pid again). Call once at start, before any create().
   * Returns the folders removed.
   */
  static async removeLeftovers(directory = tmpdir()): Promise<string[]> {
    const ours = `${FOLDER_PREFIX}${hostTag()}-`;
    const removed: string[] = [];
    for (const name of await readdir(directory).catch(() => [] as string[])) {
      if (!name.startsWith(ours)) continue;
      const pid = Number(name.slice(ours.length).split('-', 1)[0]);
      if (!Number.isSafeInteger(pid) || pid <= 0) continue;
      if (pid !== process.pid && processRuns(pid)) continue;
      await rm(join(directory, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  newPath(): string {
    return join(this.path, `${randomBytes(12).toString('hex')}.eml`);
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
