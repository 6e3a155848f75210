import type { Store } from '../../store/store.js';
import type { LogRecord } from './log-entry.js';
import { insertLogs } from './logs.queries.js';

export interface LogBufferOptions {
  /** How long a row may wait before it is written (SPEC allows entries to appear a few seconds late). */
  readonly flushIntervalMs?: number;
  /** A batch this large is written at once (small enough that writing it never stalls the event loop for long: ~0.5 ms on SQLite). */
  readonly maxBatch?: number;
  /** Rows kept while the store is failing; beyond it the oldest are dropped and reported. */
  readonly maxBuffered?: number;
}

/** Collects log rows off the hot path and writes them in batches. */
export class LogBuffer {
  private pending: LogRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown, dropped: number) => void,
    options: LogBufferOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 500;
    this.maxBatch = options.maxBatch ?? 100;
    this.maxBuffered = options.maxBuffered ?? 50_000;
  }

  push(record: LogRecord): void {
    this.pending.push(record);
    if (this.pending.length >= this.maxBatch) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything pushed so far; resolves once it is committed (or reported as failed). */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: LogRecord[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await insertLogs(this.store, batch);
    } catch (error) {
      // Keep the rows for the next flush unless the store has been failing for long.
      const room = Math.max(0, this.maxBuffered - this.pending.length);
      const kept = batch.slice(Math.max(0, batch.length - room));
      this.pending = kept.concat(this.pending);
      this.onError(error, batch.length - kept.length);
    }
  }
}
