import type { Clock } from '../lib/time.js';
import { MINUTE } from '../lib/time.js';

/** Log rows a wallet may add per minute, per instance, that cost nothing (free routes, 402s, refunded 5xx, refused or skipped deliveries). */
export const FREE_LOG_ROWS_PER_MINUTE = 60;
/** Wallets counted at once: beyond it (an attack with that many wallets), free calls of new wallets go unlogged until the minute ends. */
const MAX_WALLETS = 100_000;

/**
 * Free calls and refused deliveries happen without limit but are logged only within a budget: each row is
 * kept 7 days, and what pays nothing must not buy storage. The ledger holds its instance's one budget; counts
 * live in memory in fixed one-minute windows (so across N instances a wallet may get N × the budget); paid
 * rows are always logged.
 */
export class FreeRowLimit {
  private readonly counts = new Map<number, number>();
  private windowStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly perMinute = FREE_LOG_ROWS_PER_MINUTE,
  ) {}

  /** Whether a free call of `walletId` gets its log row; counts it when it does. */
  allow(walletId: number): boolean {
    const now = this.clock.now();
    if (now - this.windowStart >= MINUTE || now < this.windowStart) {
      this.counts.clear();
      this.windowStart = now;
    }
    const used = this.counts.get(walletId) ?? 0;
    if (used >= this.perMinute || (used === 0 && this.counts.size >= MAX_WALLETS)) return false;
    this.counts.set(walletId, used + 1);
    return true;
  }
}
