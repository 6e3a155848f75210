import fs from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';

/** The longest an access line waits in the batch before it is written (docs/operations.md#logs). */
export const ACCESS_BATCH_MS = 100;
/** A batch this long (UTF-16 units: about 320 lines) is written at once, whatever its age: one write of many lines. */
export const ACCESS_BATCH_CHARS = 64 * 1024;
/** The size of the buffers batches are written from, kept and reused (a fresh buffer's pages cost more than its copy). */
const BUFFER_BYTES = 128 * 1024;
/** How many such buffers are kept: one being written, one being filled. */
const KEPT_BUFFERS = 2;
/** How long a graceful stop, or an exit, waits for stdout to take the last lines before giving up (a reader that stalls). */
const END_TIMEOUT_MS = 2000;
/** How long to wait before trying again a write stdout refused for now (a non-blocking pipe that is full). */
const RETRY_MS = 50;

interface Pending {
  readonly buffer: Buffer;
  readonly length: number;
}

/**
 * The process's log output: stdout, written asynchronously (one write at a time on the thread pool) so no line is a
 * blocking write. pino writes its lines through `write`, each handed on at once; access lines (request-observer.ts)
 * are `append`ed to a batch handed on every ACCESS_BATCH_MS or at ACCESS_BATCH_CHARS, so an answer costs no write of
 * its own. Every line goes through one batch, in the order it was made: a pino line takes the access lines waiting
 * along. Batches are copied into buffers that are reused, not allocated per write. A graceful stop ends it (`endLog`:
 * everything written); any other exit (a fatal error, process.exit) writes what is left synchronously; a SIGKILL
 * loses the batch and what is not written yet (docs/limits.md#logs).
 */
export class LogDestination {
  /** Lines not yet handed on, as made. */
  private batch = '';
  private readonly timer: NodeJS.Timeout;
  /** Handed on, in order; the first is being written while `writing`, from `offset`. */
  private readonly queue: Pending[] = [];
  private offset = 0;
  private writing = false;
  /** A batch waits for the write in progress (it is handed on when that ends, rather than queued behind it). */
  private handOnWhenIdle = false;
  private readonly kept: Buffer[] = [];
  /** Ended (a graceful stop) or the reader is gone (EPIPE): nothing more is written. */
  private closed = false;
  /** The process is exiting: no event loop is left to finish a write, so every line is written synchronously. */
  private exiting = false;
  private idle: (() => void) | undefined;

  /** `fd`: where the lines go (stdout: 1). */
  constructor(private readonly fd: number) {
    // One timer for the process's life, re-armed when a batch begins; never keeps the process alive.
    this.timer = setTimeout(() => this.handOn(), ACCESS_BATCH_MS);
    this.timer.unref();
    flushAtExit(this);
  }

  /** A line of pino's: handed on now, with the access lines waiting before it. */
  write(line: string): boolean {
    if (this.closed) return true;
    if (this.exiting) return this.writeNow(line);
    this.batch += line;
    this.handOn();
    return true;
  }

  /** An access line (ending in a newline): batched. */
  append(line: string): void {
    if (this.closed) return;
    if (this.exiting) {
      this.writeNow(line);
      return;
    }
    if (this.batch === '') this.timer.refresh();
    this.batch += line;
    if (this.batch.length >= ACCESS_BATCH_CHARS) this.handOn(true);
  }

  /** Writes everything handed to it, resolving once stdout has taken it or after END_TIMEOUT_MS; nothing more after. */
  async end(): Promise<void> {
    if (this.closed || this.exiting) return;
    this.handOn(true);
    if (this.writing || this.queue.length > 0) {
      let timeout: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        timeout = setTimeout(resolve, END_TIMEOUT_MS);
      });
      clearTimeout(timeout);
    }
    this.closed = true;
    clearTimeout(this.timer);
  }

  /**
   * At exit: what is queued and the batch, written synchronously, and every line after them too. A write already on
   * the thread pool is not waited for (none is left after a graceful stop: `end`).
   */
  flushSync(): void {
    if (this.closed || this.exiting) return;
    this.exiting = true;
    const deadline = Date.now() + END_TIMEOUT_MS;
    const waiting = this.writing ? this.queue.slice(1) : this.queue;
    let offset = this.writing ? 0 : this.offset;
    for (const pending of waiting) {
      if (!writeAllSync(this.fd, pending.buffer.subarray(offset, pending.length), deadline)) return;
      offset = 0;
    }
    const lines = this.batch;
    this.batch = '';
    if (lines !== '') writeAllSync(this.fd, Buffer.from(lines), deadline);
  }

  /**
   * Hands the batch on to be written: at once when nothing is being written, else once all that is has been, unless
   * the batch is too long to wait (`now`): then it is queued behind it.
   */
  private handOn(now = false): void {
    if (this.batch === '' || this.closed) return;
    if ((this.writing || this.queue.length > 0) && !now) {
      this.handOnWhenIdle = true;
      return;
    }
    const lines = this.batch;
    this.batch = '';
    this.handOnWhenIdle = false;
    const length = Buffer.byteLength(lines);
    let buffer: Buffer;
    if (length <= BUFFER_BYTES) {
      buffer = this.kept.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
      buffer.write(lines, 0, 'utf8');
    } else buffer = Buffer.from(lines);
    this.queue.push({ buffer, length });
    this.pump();
  }

  private pump(): void {
    const head = this.queue[0];
    if (this.writing || head === undefined || this.closed || this.exiting) return;
    this.writing = true;
    fs.write(this.fd, head.buffer, this.offset, head.length - this.offset, null, this.written);
  }

  private readonly written = (error: NodeJS.ErrnoException | null, bytes: number): void => {
    this.writing = false;
    if (error !== null) {
      if (error.code === 'EAGAIN') {
        setTimeout(() => this.pump(), RETRY_MS);
        return;
      }
      // The reader of stdout went away: logging stops, the service goes on (as pino's own destination did).
      if (error.code === 'EPIPE') {
        this.closed = true;
        this.queue.length = 0;
        this.idle?.();
        return;
      }
      throw error;
    }
    this.offset += bytes;
    const head = this.queue[0]!;
    if (this.offset >= head.length) {
      this.queue.shift();
      this.offset = 0;
      if (head.buffer.length === BUFFER_BYTES && this.kept.length < KEPT_BUFFERS) this.kept.push(head.buffer);
    }
    if (this.queue.length === 0 && this.handOnWhenIdle) this.handOn();
    if (this.queue.length > 0) this.pump();
    else this.idle?.();
  };

  /** A line once exiting: written as it comes. */
  private writeNow(line: string): boolean {
    const bytes = Buffer.from(line);
    writeAllSync(this.fd, bytes, Date.now() + END_TIMEOUT_MS);
    return true;
  }
}

/** Writes `bytes` to `fd` synchronously, waiting out a full non-blocking pipe until `deadline`; false if cut short. */
function writeAllSync(fd: number, bytes: Buffer, deadline: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() >= deadline) return false;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
  return true;
}

/** The destinations made, flushed by one `exit` listener (held weakly: a test's logger is not kept alive by it). */
const flushedAtExit = new Set<WeakRef<LogDestination>>();

function flushAtExit(destination: LogDestination): void {
  if (flushedAtExit.size === 0)
    process.on('exit', () => {
      for (const held of flushedAtExit) held.deref()?.flushSync();
    });
  flushedAtExit.add(new WeakRef(destination));
}

/** stdout as the service's log output. */
export function stdoutDestination(): LogDestination {
  return new LogDestination(1);
}

/** The stream `logger` writes to (pino keeps it under a symbol it exports for this). */
function streamOf(logger: Logger): { write(line: string): unknown } {
  return (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]!;
}

/**
 * Where access lines go for `logger`: the batch of its LogDestination (the service's), else straight to its stream
 * (a test's), in either case after the lines the logger wrote before them.
 */
export function accessLineWriter(logger: Logger): (line: string) => void {
  const stream = streamOf(logger);
  if (stream instanceof LogDestination) return (line) => stream.append(line);
  return (line) => void stream.write(line);
}

/** Ends `logger`'s output at a graceful stop, once all it was given is written (a logger of another stream: nothing). */
export async function endLog(logger: Logger): Promise<void> {
  const stream = streamOf(logger);
  if (stream instanceof LogDestination) await stream.end();
}
