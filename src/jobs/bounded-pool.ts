/**
 * Work claimed from the store in batches and carried out with bounded concurrency. Fetching a batch
 * claims it, so every fetched item is handled even when the pool is asked to stop: stopping only
 * prevents further fetches.
 */
export interface DrainOptions<T> {
  /** Claims up to `limit` items; `more: false` says the store had no more due work. */
  readonly fetch: (limit: number) => Promise<{ readonly items: readonly T[]; readonly more: boolean }>;
  /** Carries out one item; should not throw (a throw is passed to `onError` and the pool goes on). */
  readonly handle: (item: T) => Promise<void>;
  readonly onError: (error: unknown) => void;
  readonly concurrency: number;
  readonly batchSize: number;
  readonly shouldStop?: () => boolean;
}

/** Resolves once every fetched item is handled; rejects with the fetch error, after in-flight items finish. */
export async function drainBatches<T>(options: DrainOptions<T>): Promise<void> {
  const queue: T[] = [];
  let exhausted = false;
  let fetchError: unknown;
  let fetching: Promise<void> | undefined;

  // One fetch at a time, shared by every idle worker.
  const refill = (): Promise<void> => {
    fetching ??= options
      .fetch(options.batchSize)
      .then(
        ({ items, more }) => {
          queue.push(...items);
          if (!more) exhausted = true;
        },
        (error: unknown) => {
          fetchError = error;
          exhausted = true;
        },
      )
      .finally(() => {
        fetching = undefined;
      });
    return fetching;
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      let item = queue.shift();
      while (item === undefined) {
        if (exhausted || options.shouldStop?.() === true) return;
        await refill();
        item = queue.shift();
      }
      try {
        await options.handle(item);
      } catch (error) {
        options.onError(error);
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what was caught, unchanged.
  if (fetchError !== undefined) throw fetchError;
}
