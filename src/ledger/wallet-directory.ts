import type { Store } from '../store/store.js';
import type { Clock } from '../lib/time.js';
import { HOUR } from '../lib/time.js';
import { findWalletByHash } from './wallet.queries.js';

/** What authentication knows about a wallet: never the token itself, only its hash. */
export interface WalletRef {
  readonly id: number;
  readonly hash: string;
  readonly createdAt: number;
  lastUsedAt: number;
  /**
   * The balance this instance last knew committed: read when the wallet was looked up, then the `x-balance` of
   * each answer to it (metering keeps it). Shown while the store is away, never read from the store for it.
   */
  lastBalance: number;
}

/** Last use is recorded at most once an hour per wallet: precise enough for a two-year expiry, and no write per request. */
const LAST_USED_GRANULARITY = HOUR;
/** Wallets kept in memory: every active wallet of a large deployment, for tens of MB at most; beyond, the oldest is dropped. */
const MAX_CACHED_WALLETS = 100_000;

/**
 * Resolves token hashes to wallets with a bounded in-memory cache, so authentication costs one
 * hash and one map lookup on the hot path. A wallet deleted elsewhere is noticed by the charge
 * (its UPDATE matches no row) and evicted with `forget`.
 */
export class WalletDirectory {
  private readonly cache = new Map<string, WalletRef>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  async resolve(hash: string): Promise<WalletRef | undefined> {
    const cached = this.cached(hash);
    if (cached !== undefined) return cached;
    const row = await findWalletByHash(this.store.read, hash);
    if (row === undefined) return undefined;
    const wallet: WalletRef = {
      id: row.id,
      hash: row.hash,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      lastBalance: row.balance,
    };
    if (this.cache.size >= MAX_CACHED_WALLETS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(hash, wallet);
    this.touch(wallet);
    return wallet;
  }

  /** The synchronous fast path of `resolve`: the wallet when it is cached, else undefined (then call `resolve`). */
  cached(hash: string): WalletRef | undefined {
    const wallet = this.cache.get(hash);
    if (wallet !== undefined) this.touch(wallet);
    return wallet;
  }

  forget(hash: string): void {
    this.cache.delete(hash);
  }

  private touch(wallet: WalletRef): void {
    const now = this.clock.now();
    if (now - wallet.lastUsedAt < LAST_USED_GRANULARITY) return;
    wallet.lastUsedAt = now;
    this.store
      .writeOne('UPDATE wallets SET last_used_at = $1 WHERE id = $2 AND last_used_at < $1', [now, wallet.id])
      .catch(this.onError);
  }
}
