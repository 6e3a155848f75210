import type { Clock } from './time.js';

/**
 * A map that forgets an entry once it has not been written for between one and two `periodMs`, at O(1): entries
 * live in two generations, and at each turn the older is dropped whole, never walked. Reads see both generations;
 * a write goes to the newer. Used where an entry means nothing once a period has passed since it was last written
 * (a token bucket that has filled again, a count of failures whose window ended).
 */
export class GenerationalMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private turnedAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly periodMs: number,
  ) {
    this.turnedAt = clock.now();
  }

  get(key: K): V | undefined {
    this.turn();
    return this.current.get(key) ?? this.previous.get(key);
  }

  has(key: K): boolean {
    this.turn();
    return this.current.has(key) || this.previous.has(key);
  }

  set(key: K, value: V): void {
    this.turn();
    this.current.set(key, value);
    this.previous.delete(key);
  }

  delete(key: K): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  /** Entries held; at most what was written within the last two periods. */
  get size(): number {
    this.turn();
    return this.current.size + this.previous.size;
  }

  /** How many ms until the next turn drops the older generation. */
  untilTurn(): number {
    return Math.max(1, this.turnedAt + this.periodMs - this.clock.now());
  }

  private turn(): void {
    const now = this.clock.now();
    const since = now - this.turnedAt;
    if (since < this.periodMs && since >= 0) return;
    // The older generation was last written a period ago or more; after two periods (or a clock set back) both were.
    this.previous = since < 2 * this.periodMs && since >= 0 ? this.current : new Map<K, V>();
    this.current = new Map();
    this.turnedAt = now;
  }
}
