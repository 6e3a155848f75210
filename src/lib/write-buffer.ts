export interface WriteBufferOptions {
  /** A batch this large is written at once. */
  readonly maxBatch: number;
  /** How long an item may wait before it is written. */
  readonly maxDelayMs: number;
  /** Items kept for the next flush when a write fails (the newest; older ones are dropped and reported). 0: a failed batch is dropped. */
  readonly keepOnFailure: number;
}

/**
 * Collects items off the hot path and writes them in batches, one write at a time, so recording
 * thousands of items costs a few statements rather than thousands of round trips.
 */
export class WriteBuffer<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    /** Told of a failed write and of how many items it cost. */
    private readonly onError: (error: unknown, dropped: number) => void,
    private readonly options: WriteBufferOptions,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.options.maxBatch) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.options.maxDelayMs);
      this.timer.unref();
    }
  }

  /** Writes everything added so far; resolves once it is committed (or reported as failed). */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.writeBatch(batch));
    return this.flushing;
  }

  private async writeBatch(batch: T[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.write(batch);
    } catch (error) {
      const room = Math.max(0, this.options.keepOnFailure - this.pending.length);
      const kept = room === 0 ? [] : batch.slice(Math.max(0, batch.length - room));
      this.pending = kept.concat(this.pending);
      this.onError(error, batch.length - kept.length);
    }
  }
}
