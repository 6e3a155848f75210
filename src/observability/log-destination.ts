import fs from 'node:fs';
import pino from 'pino';
import type { Logger } from 'pino';

/** The longest an access line waits in the batch before it is written (docs/operations.md#logs). */
export const ACCESS_BATCH_MS = 100;
/** A batch this long (bytes: about 320 lines) is written at once, whatever its age: one write of many lines. */
export const ACCESS_BATCH_BYTES = 64 * 1024;
/**
 * The size of the buffers lines are written into as they come and written out from, kept and reused (a fresh buffer's
 * pages cost more than its copy). Room for a batch and one more line of up to BUFFER_BYTES - ACCESS_BATCH_BYTES.
 */
const BUFFER_BYTES = 128 * 1024;
/** The most UTF-8 bytes one UTF-16 unit of a line can take: what a line is allowed for before it is written in. */
const MAX_BYTES_PER_UNIT = 3;
/** How many such buffers are kept: one being written, one being filled. */
const KEPT_BUFFERS = 2;
/** How long a graceful stop, or an exit, waits for stdout to take the last lines before giving up (a reader that stalls). */
const END_TIMEOUT_MS = 2000;
/** How long to wait before trying again a write stdout refused for now (a non-blocking pipe that is full). */
const RETRY_MS = 50;
/**
 * The most bytes of lines handed on and waiting for stdout to take them (a reader that stalls): past it the newest
 * batches are dropped, and stderr says so, rather than memory growing without bound.
 */
export const MAX_WAITING_BYTES = 32 * 1024 * 1024;

export interface LogDestinationOptions {
  /** Default MAX_WAITING_BYTES. */
  readonly maxWaitingBytes?: number;
  /** Told, in a sentence, when lines start being dropped and when writing resumes (default: to stderr). */
  readonly onTrouble?: (message: string) => void;
}

/** A sentence on stderr, written at once; nothing if stderr itself refuses it. */
function toStderr(message: string): void {
  try {
    fs.writeSync(2, `coinop: ${message}\n`);
  } catch {
    // Nowhere left to say it.
  }
}

/** The lines (newlines) in `bytes` from `start` to `end`. */
function linesIn(bytes: Buffer, start: number, end: number): number {
  let count = 0;
  for (let at = bytes.indexOf(10, start); at !== -1 && at < end; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

interface Pending {
  readonly buffer: Buffer;
  readonly length: number;
}

/**
 * The process's log output: stdout, written asynchronously (one write at a time on the thread pool) so no line is a
 * blocking write. pino writes its lines through `write`, each handed on at once; access lines (request-observer.ts)
 * are `append`ed to a batch handed on every ACCESS_BATCH_MS or at ACCESS_BATCH_BYTES, so an answer costs no write of
 * its own. Every line goes through one batch, in the order it was made: a pino line takes the access lines waiting
 * along. A line is encoded into the batch's buffer as it comes, while its text is fresh in the cache (a batch kept as
 * one string and encoded at once cost ~1 µs more a request: bench/RESULTS.md); the buffers are reused, not allocated
 * per write. A graceful stop ends it (`endLog`: everything written); any other exit (a fatal error, process.exit)
 * writes what is left synchronously; a SIGKILL loses the batch and what is not written yet (docs/limits.md#logs).
 */
export class LogDestination {
  /** The batch: lines not yet handed on, encoded as made into `fill`'s first `filled` bytes (no buffer: no line). */
  private fill: Buffer | undefined;
  private filled = 0;
  private readonly timer: NodeJS.Timeout;
  /** Handed on, in order; the first is being written while `writing`, from `offset`. */
  private readonly queue: Pending[] = [];
  /** The bytes of `queue` not written yet. */
  private waitingBytes = 0;
  /** Lines dropped in this episode (a stalled reader, a refused write): told once everything held is written. */
  private droppedLines = 0;
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

  private readonly maxWaitingBytes: number;
  private readonly onTrouble: (message: string) => void;

  /** `fd`: where the lines go (stdout: 1). */
  constructor(
    private readonly fd: number,
    options: LogDestinationOptions = {},
  ) {
    this.maxWaitingBytes = options.maxWaitingBytes ?? MAX_WAITING_BYTES;
    this.onTrouble = options.onTrouble ?? toStderr;
    // One timer for the process's life, re-armed when a batch begins; never keeps the process alive.
    this.timer = setTimeout(() => this.handOn(), ACCESS_BATCH_MS);
    this.timer.unref();
    flushAtExit(this);
  }

  /** A line of pino's: handed on now, with the access lines waiting before it. */
  write(line: string): boolean {
    if (this.closed) return true;
    if (this.exiting) return this.writeNow(line);
    this.add(line);
    this.handOn(this.filled >= ACCESS_BATCH_BYTES);
    return true;
  }

  /** An access line (ending in a newline): batched. */
  append(line: string): void {
    if (this.closed) return;
    if (this.exiting) {
      this.writeNow(line);
      return;
    }
    this.add(line);
    if (this.filled >= ACCESS_BATCH_BYTES) this.handOn(true);
  }

  /** `line` at the end of the batch; a line that might not fit goes after it, one too long for a buffer on its own. */
  private add(line: string): void {
    const most = line.length * MAX_BYTES_PER_UNIT;
    if (this.fill !== undefined && this.filled + most > BUFFER_BYTES) this.handOn(true);
    if (most > BUFFER_BYTES) {
      const bytes = Buffer.from(line);
      this.enqueue(bytes, bytes.length);
      return;
    }
    if (this.fill === undefined) {
      this.fill = this.kept.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
      this.filled = 0;
      this.timer.refresh();
    }
    this.filled += this.fill.write(line, this.filled);
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
    const batch = this.fill?.subarray(0, this.filled);
    this.fill = undefined;
    if (batch !== undefined && batch.length > 0) writeAllSync(this.fd, batch, deadline);
  }

  /**
   * Hands the batch on to be written: at once when nothing is being written, else once all that is has been, unless
   * the batch is too long to wait (`now`): then it is queued behind it.
   */
  private handOn(now = false): void {
    const buffer = this.fill;
    if (buffer === undefined || this.filled === 0 || this.closed) return;
    if ((this.writing || this.queue.length > 0) && !now) {
      this.handOnWhenIdle = true;
      return;
    }
    this.fill = undefined;
    this.handOnWhenIdle = false;
    this.enqueue(buffer, this.filled);
  }

  /** Queues `length` bytes of `buffer` to be written, unless too much is waiting already: then they are dropped. */
  private enqueue(buffer: Buffer, length: number): void {
    if (this.queue.length > 0 && this.waitingBytes + length > this.maxWaitingBytes) {
      this.drop(linesIn(buffer, 0, length), `stdout has not taken ${this.waitingBytes} bytes of log lines`);
      this.keep(buffer);
      return;
    }
    this.queue.push({ buffer, length });
    this.waitingBytes += length;
    this.pump();
  }

  /** A buffer done with, kept for reuse if it is one of the batch's size and fewer than KEPT_BUFFERS are. */
  private keep(buffer: Buffer): void {
    if (buffer.length === BUFFER_BYTES && this.kept.length < KEPT_BUFFERS) this.kept.push(buffer);
  }

  /** Lines that will not be written: counted, and the first of a run of them said on stderr. */
  private drop(lines: number, why: string): void {
    if (this.droppedLines === 0) this.onTrouble(`${why}: dropping log lines until it takes them again`);
    this.droppedLines += lines;
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
        this.waitingBytes = 0;
        this.idle?.();
        return;
      }
      // Any other refusal (a full disk, an I/O error) loses this batch, not the service: said on stderr, and the next
      // batches are tried as they come.
      const head = this.queue[0]!;
      this.drop(
        linesIn(head.buffer, this.offset, head.length),
        `the log output refused a write (${error.code ?? error.message})`,
      );
      this.release(head.length - this.offset);
    } else {
      this.offset += bytes;
      this.waitingBytes -= bytes;
      // An episode ends once what was held is all written: said once, not after every write of a slow reader.
      if (this.droppedLines > 0 && this.waitingBytes === 0) {
        this.onTrouble(`the log output takes lines again; ${this.droppedLines} were dropped`);
        this.droppedLines = 0;
      }
      const head = this.queue[0]!;
      if (this.offset >= head.length) this.release(0);
    }
    if (this.queue.length === 0 && this.handOnWhenIdle) this.handOn();
    if (this.queue.length > 0) this.pump();
    else this.idle?.();
  };

  /** The head of the queue is done with (written, or `unwritten` of its bytes dropped): its buffer is kept for reuse. */
  private release(unwritten: number): void {
    const head = this.queue.shift()!;
    this.waitingBytes -= unwritten;
    this.offset = 0;
    this.keep(head.buffer);
  }

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
