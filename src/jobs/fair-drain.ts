import type { FairLimiter, PoolKey } from '../lib/fair-limiter.js';

/**
 * Work claimed from the store and carried out in a shared pool, fairly between wallets: an item is claimed only
 * while its wallet has room in the pool (fewer than its share running, a slot free), so a wallet with a thousand
 * slow items due holds its share of the slots and leaves the rest of its items due in the store, where they wait
 * for it, not in front of anyone else's. Claims are tried again whenever an item is done and every `recheckMs`
 * while items run, so work that falls due meanwhile (another wallet's) is taken up without waiting for the slow ones.
 */
export interface FairDrainOptions<T> {
  readonly pool: FairLimiter;
  readonly keyOf: (item: T) => PoolKey;
  /** Claims at most `limit` items, none of a key in `shares.full`, at most `shares.roomFor(key)` of any key. */
  readonly fetch: (
    limit: number,
    shares: ClaimShares,
  ) => Promise<{ readonly items: readonly T[]; readonly more: boolean }>;
  /** Carries out one item; a throw is passed to `onError` and the drain goes on. */
  readonly handle: (item: T) => Promise<void>;
  readonly onError: (error: unknown) => void;
  /** Items in hand at once (claimed, not yet done); the pool's capacity bounds them too. */
  readonly concurrency: number;
  readonly batchSize: number;
  readonly recheckMs: number;
  /** Once true, nothing more is claimed; what was claimed is still carried out. */
  readonly shouldStop?: () => boolean;
  /** Items claimed earlier, carried out first. */
  readonly held?: readonly T[];
}

export interface ClaimShares {
  /** Keys whose share of the pool is taken: claim none of theirs. */
  readonly full: readonly PoolKey[];
  /** Keys with items running and room left (roomFor); any other key has its whole share free. */
  readonly busy: readonly PoolKey[];
  roomFor(key: PoolKey): number;
  /**
   * Whether one more item of `key` can start after those this claim took already, counting it if so: a batch of many
   * wallets takes no more than the shared slots and the reserve hold (FairLimiter.claimPlan), so none of it waits.
   */
  take(key: PoolKey): boolean;
}

/** Resolves once nothing is due and every claimed item is done; rejects with a fetch error, after the items in hand finish. */
export async function drainFairly<T>(options: FairDrainOptions<T>): Promise<void> {
  const { pool } = options;
  const inHand = new Set<Promise<void>>();
  const start = (item: T): void => {
    const done: Promise<void> = pool
      .run(options.keyOf(item), () => options.handle(item))
      .catch(options.onError)
      .finally(() => inHand.delete(done));
    inHand.add(done);
  };
  for (const item of options.held ?? []) start(item);
  let fetchError: unknown;
  while (options.shouldStop?.() !== true) {
    // The reserved slots too: a claim takes only what can start now (ClaimShares), so with the shared slots taken
    // only wallets holding few of the pool's tasks (none, by default) are claimed for them.
    const limit = Math.min(options.batchSize, options.concurrency - inHand.size, pool.freeWithReserve);
    let more = false;
    let full: readonly PoolKey[] = [];
    if (limit > 0) {
      try {
        full = pool.fullKeys();
        const batch = await options.fetch(limit, {
          full,
          busy: pool.busyKeys(),
          roomFor: (key) => pool.roomFor(key),
          take: pool.claimPlan(),
        });
        for (const item of batch.items) start(item);
        more = batch.more;
      } catch (error) {
        fetchError = error;
        break;
      }
    }
    if (more) continue;
    if (inHand.size === 0) {
      // Nothing left due, unless the fetch passed over wallets whose share was taken: their items may have finished
      // during the fetch, so claim again (at once, or after a recheck while another holder still takes the share).
      if (full.length === 0) break;
      if (pool.fullKeys().length > 0) await firstOf([], options.recheckMs);
      continue;
    }
    await firstOf([...inHand], options.recheckMs);
  }
  await Promise.all(inHand);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what was caught, unchanged.
  if (fetchError !== undefined) throw fetchError;
}

/** Resolves when the first of `work` settles, or after `ms`. */
async function firstOf(work: readonly Promise<void>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([...work, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
