interface Submitted<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Writes items in batches, one batch in flight: items submitted during an event-loop turn, or while
 * the previous batch is being written, go together into the next one. For stores where every commit
 * costs a round trip and a WAL flush (PostgreSQL), so N concurrent writes cost one commit instead of N.
 * `writeBatch` answers each item in order; if it throws, every item of that batch gets the error.
 */
export class Batcher<T, R> {
  private pending: Submitted<T, R>[] = [];
  private running = false;

  constructor(
    private readonly writeBatch: (items: T[]) => Promise<R[]>,
    /** Called when the queue has run dry (e.g. to forget a per-key batcher). */
    private readonly onIdle?: () => void,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    // Let the rest of this event-loop turn join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const results = await this.writeBatch(batch.map((submitted) => submitted.item));
        batch.forEach((submitted, i) => submitted.resolve(results[i] as R));
      } catch (error) {
        for (const submitted of batch) submitted.reject(error);
      }
    }
    this.running = false;
    this.onIdle?.();
  }
}

/**
 * One Batcher per key (a wallet's row, say), made on the first item and forgotten once its queue runs dry: items of one
 * key are batched together, keys never wait for each other.
 */
export class KeyedBatchers<K, T, R> {
  private readonly batchers = new Map<K, Batcher<T, R>>();

  constructor(private readonly writeBatch: (key: K, items: T[]) => Promise<R[]>) {}

  submit(key: K, item: T): Promise<R> {
    let batcher = this.batchers.get(key);
    if (batcher === undefined) {
      batcher = new Batcher(
        (items) => this.writeBatch(key, items),
        () => this.batchers.delete(key),
      );
      this.batchers.set(key, batcher);
    }
    return batcher.submit(item);
  }
}
