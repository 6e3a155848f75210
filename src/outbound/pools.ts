import { setImmediate as nextTurn } from 'node:timers/promises';
import { errors } from '../errors.js';
import { FairLimiter, PoolFullError } from '../lib/fair-limiter.js';
import type { FairLimiterOptions, PoolKey } from '../lib/fair-limiter.js';
import type { Dialect } from '../store/store.js';

/**
 * Every shared pool of outbound or costly work, shared fairly between wallets (docs/limits.md "Shared pools"):
 * each is a FairLimiter keyed by the wallet the work is for, so a wallet gets at most `perKey` of a pool's
 * slots, and a freed slot goes to the waiting wallet holding the fewest. A wallet that buys slow work waits
 * for itself, not for others. Built once per process (createDeps); the numbers are here, in one place.
 */
export interface Pools {
  /** url-to-metadata: one slot per call while its page and robots.txt are fetched. */
  readonly pageFetches: FairLimiter;
  /** url-to-metadata: a fetched page's analysis, on the analysis thread (metadata/analysis-thread.ts). */
  readonly pageAnalyses: FairLimiter;
  /** url-to-metadata: one slot per summary asked of the AI provider (the built-in summarizer too: it is CPU work). */
  readonly summaries: FairLimiter;
  /** url-to-metadata calls with a summary, from their start: a call the summaries' queue would refuse is refused before its fetch. */
  readonly summaryCalls: WalletBookings;
  /** POST /dns-lookup calls at work at once; a wallet's calls beyond its share wait, past its queue bound they get 503. */
  readonly dnsCalls: FairLimiter;
  /** DNS queries (with their retries) and TLS probes in flight, of all calls together. */
  readonly dnsQueries: FairLimiter;
  /** Webhook deliveries a caller asks for over HTTP: test deliveries and redeliveries. */
  readonly askedDeliveries: FairLimiter;
  /** Scheduled runs (charge and delivery). */
  readonly scheduledRuns: FairLimiter;
  /** Inbound messages parsed, planned and recorded at once (each may hold up to MAX_MESSAGE_BYTES decoded). */
  readonly mailParsing: FairLimiter;
  /** Deliveries of inbound mail to mailbox webhooks. */
  readonly mailDeliveries: FairLimiter;
  /**
   * Listings that read many of a wallet's rows (its buckets, counting up to 10,000 entries; a bucket's keys; its
   * webhooks; its call log): milliseconds of work each, on the event loop on SQLite (see inListingTurn).
   */
  readonly listings: FairLimiter;
}

/**
 * The numbers of each pool. `maxWaitingPerKey` is set where a caller is waiting on an HTTP answer (it gets a 503
 * past it, uncharged); background work (schedules, mail) is bounded where it is claimed or received instead.
 */
export const POOL_SIZES: Readonly<Record<Exclude<keyof Pools, 'summaryCalls'>, FairLimiterOptions>> = {
  // A few wallets' slow work can fill `slots`; the reserve then still starts other wallets' first calls at once, until
  // that many more wallets hold work too. Sized by what a task holds: a page up to 2 MiB, a parse up to 30 MB.
  pageFetches: { slots: 64, perKey: 8, maxWaitingPerKey: 32, reserved: 32 },
  summaries: { slots: 16, perKey: 4, maxWaitingPerKey: 16, reserved: 16 },
  // One thread parses pages, one at a time; an analysis runs inside its call's page-fetch slot, so a wallet has at
  // most as many waiting as it holds fetch slots (8).
  pageAnalyses: { slots: 1, perKey: 1 },
  dnsCalls: { slots: 64, perKey: 8, maxWaitingPerKey: 16, reserved: 192 },
  // A call's own bound is 24 queries: a wallet's first call runs at full width in the reserve.
  dnsQueries: { slots: 256, perKey: 32, reserved: 768, reservedPerKey: 24 },
  askedDeliveries: { slots: 64, perKey: 8, maxWaitingPerKey: 64, reserved: 192 },
  // Claimed in the background (fair-drain.ts): once the shared slots are taken, only wallets holding none are claimed.
  scheduledRuns: { slots: 64, perKey: 8, reserved: 64 },
  mailParsing: { slots: 4, perKey: 2, reserved: 2 },
  // A delivery holds its payload (1 MiB at most) while it runs.
  mailDeliveries: { slots: 64, perKey: 8, reserved: 64 },
  // One listing of a wallet at a time, two in all (eight on PostgreSQL: poolSizesFor), each on a turn of its own
  // (inListingTurn): however many a wallet sends at once, the loop serves other calls between them.
  listings: { slots: 2, perKey: 1, maxWaitingPerKey: 16 },
};

/**
 * The sizes for a store's engine: on SQLite a listing's read holds the event loop, so two run in a turn at most; on
 * PostgreSQL it waits for the database, so more of the wallets' listings may be at work at once (each holds one of
 * DATABASE_POOL_SIZE's connections for a statement).
 */
export function poolSizesFor(dialect: Dialect): typeof POOL_SIZES {
  return dialect === 'postgres' ? { ...POOL_SIZES, listings: { ...POOL_SIZES.listings, slots: 8 } } : POOL_SIZES;
}

export function createPools(sizes: typeof POOL_SIZES = POOL_SIZES): Pools {
  const { perKey, maxWaitingPerKey = 0 } = sizes.summaries;
  return {
    pageFetches: new FairLimiter(sizes.pageFetches),
    pageAnalyses: new FairLimiter(sizes.pageAnalyses),
    summaries: new FairLimiter(sizes.summaries),
    // As many as the summaries pool runs and queues for one wallet: a call beyond would be refused there, after its fetch.
    summaryCalls: new WalletBookings(perKey + maxWaitingPerKey),
    dnsCalls: new FairLimiter(sizes.dnsCalls),
    dnsQueries: new FairLimiter(sizes.dnsQueries),
    askedDeliveries: new FairLimiter(sizes.askedDeliveries),
    scheduledRuns: new FairLimiter(sizes.scheduledRuns),
    mailParsing: new FairLimiter(sizes.mailParsing),
    mailDeliveries: new FairLimiter(sizes.mailDeliveries),
    listings: new FairLimiter(sizes.listings),
  };
}

/** What a call answers when its wallet already has as many calls waiting in a pool as the pool takes. */
export const WALLET_BUSY = 'Too many calls of this wallet in progress: try again shortly';
/** Seconds a refused caller is told to wait: slots of these pools turn over within seconds. */
const WALLET_BUSY_RETRY_S = 1;

/**
 * Runs an HTTP call's work in its wallet's share of `pool`, waiting for its turn; a wallet over the pool's queue
 * bound gets a 503 (whose charge the route's metering refunds) instead of queueing without end.
 */
export async function inWalletShare<T>(pool: FairLimiter, wallet: PoolKey, task: () => Promise<T>): Promise<T> {
  try {
    return await pool.run(wallet, task);
  } catch (error) {
    if (error instanceof PoolFullError && error.key === wallet)
      throw errors.unavailable(WALLET_BUSY, WALLET_BUSY_RETRY_S);
    throw error;
  }
}

/**
 * Runs a listing (a read of many of a wallet's rows, and the making of its answer) in the `listings` pool: one of a
 * wallet's at a time, each started on a turn of the event loop of its own, so however many listings a wallet sends at
 * once, other calls are served between them (on SQLite the read itself holds the loop). Past the wallet's queue, 503.
 */
export function inListingTurn<T>(
  pools: Pick<Pools, 'listings'>,
  wallet: PoolKey,
  listing: () => Promise<T>,
): Promise<T> {
  return inWalletShare(pools.listings, wallet, async () => {
    await nextTurn();
    return listing();
  });
}

/**
 * Calls of a wallet in progress that will need a pool only after other work (a summary after the page's fetch and
 * analysis): counted from their start and bounded like the pool's share and queue, so a call the pool would refuse
 * is refused before the earlier work is done for nothing.
 */
export class WalletBookings {
  private readonly ofWallet = new Map<PoolKey, number>();

  constructor(private readonly perWallet: number) {}

  async within<T>(wallet: PoolKey, task: () => Promise<T>): Promise<T> {
    const held = this.ofWallet.get(wallet) ?? 0;
    if (held >= this.perWallet) throw errors.unavailable(WALLET_BUSY, WALLET_BUSY_RETRY_S);
    this.ofWallet.set(wallet, held + 1);
    try {
      return await task();
    } finally {
      const left = (this.ofWallet.get(wallet) ?? 1) - 1;
      if (left === 0) this.ofWallet.delete(wallet);
      else this.ofWallet.set(wallet, left);
    }
  }
}
