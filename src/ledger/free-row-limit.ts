import type { Clock } from '../lib/time.js';
import { RateBuckets } from '../lib/rate-buckets.js';
import type { BucketRule } from '../lib/rate-buckets.js';

/** What is free, a wallet may have this many of a minute, per instance: free calls, and log rows that cost nothing. */
export const FREE_PER_MINUTE = 60;
/**
 * How many at once after a quiet spell: the console's webhook list reads the last delivery of each of up to
 * 100 webhooks (free), and a page or two more must fit.
 */
export const FREE_BURST = 120;
/** The per-minute rate of free log rows (the name older callers know). */
export const FREE_LOG_ROWS_PER_MINUTE = FREE_PER_MINUTE;
/** Wallets tracked at once (a few MB): beyond it (an attack with that many wallets), new wallets wait for room. */
const MAX_WALLETS = 100_000;

/** The one rule for everything free (docs/limits.md "Client identity and the free budget"). */
export const FREE_RULE: BucketRule = { perMinute: FREE_PER_MINUTE, burst: FREE_BURST, maxKeys: MAX_WALLETS };

/**
 * Free calls and refused deliveries are logged only within a budget: each row is kept 7 days, and what pays
 * nothing must not buy storage. The ledger holds its instance's one budget, in memory (so across N instances a
 * wallet may get N × the budget); paid rows are always logged. Same rule as the free-call budget, so a wallet
 * that only makes free calls has every call it was served logged.
 */
export class FreeRowLimit {
  private readonly buckets: RateBuckets<number>;

  constructor(clock: Clock, rule: BucketRule = FREE_RULE) {
    this.buckets = new RateBuckets(clock, rule);
  }

  /** Whether a free call of `walletId` gets its log row; counts it when it does. */
  allow(walletId: number): boolean {
    return this.buckets.take(walletId) === 0;
  }
}
