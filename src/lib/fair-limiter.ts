/**
 * A shared pool of slots divided fairly between keys (wallets): at most `slots` tasks run at once in all, and at most
 * `perKey` of any one key. A freed slot goes to the waiting key holding the fewest slots, so a key that queued a
 * thousand tasks gets no more turns than a key that queued one: a wallet that buys slow work waits for itself, not for others.
 * `reserved` slots beyond `slots` serve only keys holding fewer than `reservedPerKey`: when a few wallets hold every
 * slot with slow work, another wallet's first tasks still start at once, until that many more wallets hold some too.
 */
export interface FairLimiterOptions {
  /** Tasks running at once in all. */
  readonly slots: number;
  /** Tasks of one key running at once (at most `slots`). */
  readonly perKey: number;
  /** Tasks of one key waiting at once; more are refused at once with PoolFullError. Default: unbounded. */
  readonly maxWaitingPerKey?: number;
  /** Slots beyond `slots` for keys holding fewer than `reservedPerKey` tasks. Default: none. */
  readonly reserved?: number;
  /** How many tasks a key may hold and still start in the reserved slots (at most `perKey`). Default: 1. */
  readonly reservedPerKey?: number;
}

/** A task refused because its key already has `maxWaitingPerKey` tasks waiting. */
export class PoolFullError extends Error {
  constructor(readonly key: PoolKey) {
    super('too many tasks of one key waiting for the pool');
    this.name = 'PoolFullError';
  }
}

export type PoolKey = string | number;

export class FairLimiter {
  private running = 0;
  private readonly runningOf = new Map<PoolKey, number>();
  private readonly waitingOf = new Map<PoolKey, Array<() => void>>();
  /** Keys with waiting tasks, in the order they are served next. */
  private readonly turn: PoolKey[] = [];

  /** `slots`, and `slots + reserved`: what a key holding `reservedPerKey` or more may fill, and what any other key may. */
  private readonly shared: number;
  private readonly withReserve: number;
  private readonly reservedPerKey: number;

  constructor(private readonly options: FairLimiterOptions) {
    const { slots, perKey, reserved = 0, reservedPerKey = 1 } = options;
    if (!Number.isInteger(slots) || slots < 1) throw new Error('slots must be a positive integer');
    if (!Number.isInteger(perKey) || perKey < 1 || perKey > slots)
      throw new Error('perKey must be an integer from 1 to slots');
    if (!Number.isInteger(reserved) || reserved < 0) throw new Error('reserved must be a non-negative integer');
    if (!Number.isInteger(reservedPerKey) || reservedPerKey < 1 || reservedPerKey > perKey)
      throw new Error('reservedPerKey must be an integer from 1 to perKey');
    this.shared = slots;
    this.withReserve = slots + reserved;
    this.reservedPerKey = reservedPerKey;
  }

  /** How many tasks may run in all for a key already holding `active` to start one more. */
  private capacityFor(active: number): number {
    return active < this.reservedPerKey ? this.withReserve : this.shared;
  }

  /** Tasks running now, in all. */
  get active(): number {
    return this.running;
  }

  /** Tasks of `key` running now. */
  activeOf(key: PoolKey): number {
    return this.runningOf.get(key) ?? 0;
  }

  /** Shared slots free now (waiting tasks will take them first); the reserved ones are not counted. */
  get free(): number {
    return Math.max(0, this.shared - this.running);
  }

  /** Every slot free now, the reserved ones too (only keys holding fewer than `reservedPerKey` may take those). */
  get freeWithReserve(): number {
    return Math.max(0, this.withReserve - this.running);
  }

  /** Tasks that may run at once in all, the reserve included. */
  get capacity(): number {
    return this.withReserve;
  }

  /** How many more tasks of `key` could start now, with no task of its own waiting. */
  roomFor(key: PoolKey): number {
    if (this.waitingOf.has(key)) return 0;
    const active = this.activeOf(key);
    // Reserved slots count for the tasks that would start while the key holds fewer than reservedPerKey.
    const reserve = Math.max(0, Math.min(this.withReserve - this.running, this.reservedPerKey - active));
    return Math.max(0, Math.min(Math.max(this.free, reserve), this.options.perKey - active));
  }

  /**
   * A claim of several tasks at once, as they would start one after another: the function says whether a task of
   * `key` could start after those it said yes to before (the key's share, then the shared slots, then the reserve for
   * a key holding fewer than `reservedPerKey`), and counts it if so. Nothing starts: the claimer runs them next.
   */
  claimPlan(): (key: PoolKey) => boolean {
    let running = this.running;
    const taken = new Map<PoolKey, number>();
    return (key) => {
      if (this.waitingOf.has(key)) return false;
      const planned = taken.get(key) ?? 0;
      const active = this.activeOf(key) + planned;
      if (active >= this.options.perKey || running >= this.capacityFor(active)) return false;
      running += 1;
      taken.set(key, planned + 1);
      return true;
    };
  }

  /**
   * Keys running tasks with no room for another now (their `perKey` taken, or the shared slots taken and they hold
   * `reservedPerKey` or more): work of theirs should not be claimed.
   */
  fullKeys(): PoolKey[] {
    const full: PoolKey[] = [];
    for (const key of this.runningOf.keys()) if (this.roomFor(key) === 0) full.push(key);
    return full;
  }

  /** Keys running tasks with room for more now: work of theirs may be claimed up to roomFor(key). */
  busyKeys(): PoolKey[] {
    const busy: PoolKey[] = [];
    for (const key of this.runningOf.keys()) if (this.roomFor(key) > 0) busy.push(key);
    return busy;
  }

  /** Runs `task` under `key` once a slot is free and it is that key's turn. */
  async run<T>(key: PoolKey, task: () => Promise<T>): Promise<T> {
    if (this.waitingOf.has(key) || !this.canStart(key)) await this.wait(key);
    else this.take(key);
    try {
      return await task();
    } finally {
      this.release(key);
    }
  }

  private canStart(key: PoolKey): boolean {
    const active = this.activeOf(key);
    return active < this.options.perKey && this.running < this.capacityFor(active);
  }

  private take(key: PoolKey): void {
    this.running++;
    this.runningOf.set(key, this.activeOf(key) + 1);
  }

  private wait(key: PoolKey): Promise<void> {
    let queue = this.waitingOf.get(key);
    if (queue === undefined) {
      queue = [];
      this.waitingOf.set(key, queue);
      this.turn.push(key);
    } else if (queue.length >= (this.options.maxWaitingPerKey ?? Number.POSITIVE_INFINITY)) {
      return Promise.reject(new PoolFullError(key));
    }
    const waiting = queue;
    return new Promise<void>((resolve) => waiting.push(resolve));
  }

  private release(key: PoolKey): void {
    this.running--;
    const left = this.activeOf(key) - 1;
    if (left === 0) this.runningOf.delete(key);
    else this.runningOf.set(key, left);
    this.startNext();
  }

  /**
   * Gives the free slot to the waiting key with the fewest tasks running (the first in turn among equals): a key
   * that already holds slots yields to one that holds none. The key served goes to the back of the turn.
   */
  private startNext(): void {
    if (this.running >= this.withReserve) return;
    let chosen = -1;
    for (let index = 0; index < this.turn.length; index++) {
      const active = this.activeOf(this.turn[index] as PoolKey);
      if (active >= this.options.perKey || this.running >= this.capacityFor(active)) continue;
      if (chosen === -1 || active < this.activeOf(this.turn[chosen] as PoolKey)) chosen = index;
      if (active === 0) break;
    }
    if (chosen === -1) return;
    const [key] = this.turn.splice(chosen, 1) as [PoolKey];
    const queue = this.waitingOf.get(key) as Array<() => void>;
    const resolve = queue.shift() as () => void;
    if (queue.length === 0) this.waitingOf.delete(key);
    else this.turn.push(key);
    this.take(key);
    resolve();
  }
}
