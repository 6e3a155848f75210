import type { Clock } from './time.js';
import { MINUTE } from './time.js';
import { GenerationalMap } from './generational-map.js';

export interface BucketRule {
  /** Takes a key earns back per minute, one at a time. */
  readonly perMinute: number;
  /** Takes a key may make at once after a quiet spell: the bucket's size. */
  readonly burst: number;
  /** Keys tracked at once; beyond, a new key is refused until an old one is full again. */
  readonly maxKeys: number;
}

/**
 * A token bucket per key, in memory (GCRA: one number per key, the time its bucket is full again). A key is
 * forgotten once its bucket has been full again for a while (GenerationalMap, with a period of one whole refill),
 * so memory holds the keys used in the last few minutes, never more than `maxKeys`; every call is O(1).
 */
export class RateBuckets<K> {
  private readonly fullAt: GenerationalMap<K, number>;
  private readonly interval: number;
  private readonly capacity: number;

  constructor(
    private readonly clock: Clock,
    private readonly rule: BucketRule,
  ) {
    this.interval = MINUTE / rule.perMinute;
    this.capacity = rule.burst * this.interval;
    // A key not taken for a whole refill has a full bucket: forgetting it changes nothing.
    this.fullAt = new GenerationalMap(clock, this.capacity);
  }

  /** Takes one from `key`'s bucket: 0 when taken, else how many ms until one can be (nothing taken). */
  take(key: K): number {
    const now = this.clock.now();
    const wait = this.waitAt(key, now);
    if (wait > 0) return wait;
    this.fullAt.set(key, this.startOf(key, now) + this.interval);
    return 0;
  }

  /** How many ms until `key` may take one; 0 when it may now. Takes nothing. */
  wait(key: K): number {
    return this.waitAt(key, this.clock.now());
  }

  /** Forgets `key`: its bucket is full again. */
  reset(key: K): void {
    this.fullAt.delete(key);
  }

  private waitAt(key: K, now: number): number {
    // No room for a new key: it waits for the next turn of the map, which frees the keys not taken for a while.
    if (this.fullAt.size >= this.rule.maxKeys && !this.fullAt.has(key)) return this.fullAt.untilTurn();
    const over = this.startOf(key, now) + this.interval - now - this.capacity;
    return over > 0 ? Math.ceil(over) : 0;
  }

  /** When the next take is counted from: now for a full bucket, else when it is full again. */
  private startOf(key: K, now: number): number {
    const fullAt = this.fullAt.get(key);
    if (fullAt === undefined || fullAt <= now) return now;
    if (fullAt <= now + this.capacity) return fullAt;
    // Further ahead than an empty bucket: the clock was set back. Empty, from now on, is the most it can be.
    this.fullAt.set(key, now + this.capacity);
    return now + this.capacity;
  }
}
