import sonicBoom from 'sonic-boom';
import type { SonicBoom } from 'sonic-boom';
import pino from 'pino';
import type { Logger } from 'pino';

/** The longest an access line waits in the batch before it is written (docs/operations.md#logs). */
export const ACCESS_BATCH_MS = 100;
/** A batch this long (UTF-16 units: about 320 lines) is written at once, whatever its age: one write of many lines. */
export const ACCESS_BATCH_CHARS = 64 * 1024;
/** How long a graceful stop waits for the log to reach stdout before exiting anyway (a reader that stalls). */
const END_TIMEOUT_MS = 2000;

/**
 * The process's log output: stdout, written asynchronously (SonicBoom, pino's own writer) so no line is a blocking
 * write. pino writes its lines through `write`, each handed on at once; access lines (request-observer.ts) are
 * `append`ed to a batch handed on every ACCESS_BATCH_MS or at ACCESS_BATCH_CHARS, so an answer costs no write of its
 * own. Every line goes through here in the order it was made: a pino line first hands on the access lines waiting.
 * A graceful stop ends it (`endLog`: everything written); any other exit (a fatal error, process.exit) writes what is
 * left synchronously; a SIGKILL loses the batch (docs/limits.md#logs).
 */
export class LogDestination {
  private out: SonicBoom;
  private batch = '';
  private readonly timer: NodeJS.Timeout;
  /** Ended (a graceful stop) or the reader is gone (EPIPE): nothing more is written. */
  private closed = false;
  /** The process is exiting: no event loop is left to finish a write, so every line is written synchronously. */
  private exiting = false;
  private readonly ended: Promise<void>;

  /** `fd`: where the lines go (stdout: 1). */
  constructor(private readonly fd: number) {
    this.out = this.writer(false);
    // One timer for the process's life, re-armed when a batch begins; never keeps the process alive.
    this.timer = setTimeout(() => this.writeBatch(), ACCESS_BATCH_MS);
    this.timer.unref();
    this.ended = new Promise((resolve) => this.out.once('close', resolve));
    flushAtExit(this);
  }

  /** A line of pino's: handed on now, after the access lines waiting. */
  write(line: string): boolean {
    if (this.closed) return true;
    if (this.batch === '') return this.out.write(line);
    const lines = this.batch + line;
    this.batch = '';
    return this.out.write(lines);
  }

  /** An access line (ending in a newline): batched. */
  append(line: string): void {
    if (this.closed) return;
    if (this.exiting) {
      this.out.write(line);
      return;
    }
    if (this.batch === '') this.timer.refresh();
    this.batch += line;
    if (this.batch.length >= ACCESS_BATCH_CHARS) this.writeBatch();
  }

  /** Writes everything (the batch, then what SonicBoom holds), resolving once written or after END_TIMEOUT_MS. */
  async end(): Promise<void> {
    if (this.closed || this.exiting) return;
    this.writeBatch();
    this.closed = true;
    this.out.end();
    let timeout: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timeout = setTimeout(resolve, END_TIMEOUT_MS)));
    await Promise.race([this.ended, late]);
    clearTimeout(timeout);
  }

  /**
   * At exit: what SonicBoom holds, then the batch, written synchronously, and every line after them too. A write
   * already on the thread pool is not waited for (none is left after a graceful stop: `end`).
   */
  flushSync(): void {
    if (this.closed || this.exiting) return;
    this.exiting = true;
    try {
      this.out.flushSync();
      this.out = this.writer(true);
      this.writeBatch();
    } catch {
      // A reader that is gone: nothing more can be written.
    }
  }

  private writeBatch(): void {
    if (this.batch === '' || this.closed) return;
    const lines = this.batch;
    this.batch = '';
    this.out.write(lines);
  }

  private writer(sync: boolean): SonicBoom {
    const out = new sonicBoom.SonicBoom({ fd: this.fd, sync });
    out.on('error', (error: NodeJS.ErrnoException) => {
      // The reader of stdout went away: logging stops, the service goes on (as pino's own destination does).
      if (error.code === 'EPIPE') {
        this.closed = true;
        return;
      }
      throw error;
    });
    return out;
  }
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
