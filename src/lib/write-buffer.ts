export interface WriteBufferOptions {
  /** A batch this large is written at once. */
  readonly maxBatch: number;
  /** How long an item may wait before it is written. */
  readonly maxDelayMs: number;
  /** Items kept for the next flush when a write fails (the newest; older ones are dropped and reported). 0: a failed batch is dropped. */
  readonly keepOnFailure: number;
}

/** A failed write is tried again after this long, even when nothing new arrives. */
const RETRY_DELAY_MS = 1000;

/**
 * Collects items off the hot path and writes them in batches, one write at a time, so recording
 * thousands of items costs a few statements rather than thousands of round trips.
 */
export class WriteBuffer<T> {
  private pending: T[] = [];
  /** Items a failed write left, oldest first; older than anything in `pending`. */
  private retry: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    /** Told of a failed write and of how many items it cost. */
    private readonly onError: (error: unknown, dropped: number) => void,
    private readonly options: WriteBufferOptions,
  ) {}

  /** Items not yet written: waiting for the next flush or for a retry (metrics read it when scraped). */
  get size(): number {
    return this.pending.length + this.retry.length;
  }

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.options.maxBatch) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.options.maxDelayMs);
      this.timer.unref();
    }
  }

  /**
   * Writes everything added so far, `maxBatch` at a time (a backlog kept through a store outage never
   * stalls the event loop in one write); resolves once it is committed (or reported as failed).
   */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.retry.length === 0 ? this.pending : this.retry.concat(this.pending);
    this.retry = [];
    this.pending = [];
    this.flushing = this.flushing.then(() => this.writeAll(items));
    return this.flushing;
  }

  private async writeAll(items: T[]): Promise<void> {
    for (let start = 0; start < items.length; start += this.options.maxBatch) {
      const batch = items.slice(start, start + this.options.maxBatch);
      try {
        await this.write(batch);
      } catch (error) {
        this.keep(items.slice(start), error);
        return;
      }
    }
  }

  /** After a failed write: the newest unwritten items wait for the next attempt, which is scheduled even if nothing else is added. */
  private keep(unwritten: T[], error: unknown): void {
    const waiting = this.retry.concat(unwritten);
    const dropped = Math.max(0, waiting.length - this.options.keepOnFailure);
    this.retry = waiting.slice(dropped);
    this.onError(error, dropped);
    if (this.retry.length > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), RETRY_DELAY_MS);
      this.timer.unref();
    }
  }
}
