import type pg from 'pg';

/** How often a pool short of its size (connections lost to a restart, a network cut) is filled again. */
export const TOP_UP_INTERVAL_MS = 2000;

export interface PoolKeeper {
  /** Opens the connections the pool is short of; resolves once each has opened or failed. */
  fill(): Promise<void>;
  stop(): void;
}

/**
 * Keeps `pool` at `size` open connections, as a fixed-size pool does (HikariCP's default): opened when the store opens,
 * refilled while nothing waits and the database is known to be there. A pool that grows on demand opens its
 * connections when a burst arrives, and pg-pool hands each one to the call that asked for it: that call waits for
 * PostgreSQL to start a backend (tens of ms, hundreds with a dozen at once) even when other connections come free
 * sooner, so one wallet's burst stalls every other wallet's calls for that long. The pool must also be made with
 * `min: size`, so that it never closes an idle connection.
 */
export function keepPoolFull(
  pool: pg.Pool,
  options: { readonly size: number; readonly available: () => boolean; readonly intervalMs?: number },
): PoolKeeper {
  let filling: Promise<void> | undefined;
  const fill = (): Promise<void> => {
    filling ??= openMissing(pool, options.size).finally(() => (filling = undefined));
    return filling;
  };
  const timer = setInterval(() => {
    if (pool.totalCount < options.size && pool.waitingCount === 0 && options.available()) void fill();
  }, options.intervalMs ?? TOP_UP_INTERVAL_MS);
  timer.unref();
  return { fill, stop: () => clearInterval(timer) };
}

/**
 * Asks the pool for every idle connection and as many more as it is short of, giving each back as soon as it comes.
 * pg-pool hands out the idle ones first (they are back within the turn, so no call waits on them) and opens a new
 * connection for each request left over.
 */
async function openMissing(pool: pg.Pool, size: number): Promise<void> {
  if (pool.totalCount >= size) return;
  const wanted = size - pool.totalCount + pool.idleCount;
  await Promise.allSettled(Array.from({ length: wanted }, () => pool.connect().then((client) => client.release())));
}
