import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';

/**
 * Holds one raw message while it arrives, so a slow sender costs a file handle, not memory: small
 * messages stay in memory, larger ones go to a private temp file (mode 0600 in a 0700 folder) that
 * is deleted as soon as the message has been parsed. Bytes beyond `maxBytes` are counted and dropped.
 */
export class Spool {
  private chunks: Buffer[] = [];
  private memoryBytes = 0;
  private file: { path: string; handle: FileHandle } | undefined;
  private disposed = false;
  /** Every byte offered, kept or not. */
  received = 0;

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

  async write(chunk: Buffer): Promise<void> {
    const room = this.maxBytes - this.received;
    this.received += chunk.length;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
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
        this.write(chunk).then(() => callback(options.failWhenOversized === true && this.oversized ? new SpoolOverflow() : undefined), callback);
      },
    });
  }

  /** The kept bytes, from the start. Call once writing is over. */
  async reader(): Promise<Readable> {
    if (this.file === undefined) return Readable.from(this.chunks, { objectMode: false });
    return createReadStream(this.file.path, { highWaterMark: 64 * 1024 });
  }

  /** Forgets the message: the temp file is closed and deleted. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.chunks = [];
    const file = this.file;
    this.file = undefined;
    if (file !== undefined) {
      await file.handle.close().catch(() => undefined);
      await unlink(file.path).catch(() => undefined);
    }
  }
}

export class SpoolOverflow extends Error {
  constructor() {
    super('message larger than the limit');
    this.name = 'SpoolOverflow';
  }
}

/** A private folder for spool files, removed with everything in it on close. */
export class SpoolFolder {
  private constructor(private readonly path: string) {}

  static async create(): Promise<SpoolFolder> {
    return new SpoolFolder(await mkdtemp(join(tmpdir(), 'coinop-mail-')));
  }

  newPath(): string {
    return join(this.path, `${randomBytes(12).toString('hex')}.eml`);
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
