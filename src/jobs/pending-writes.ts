import type { OutageLog } from './outage-log.js';

/** How often writes kept through a store outage are tried again. */
export const PENDING_WRITE_RETRY_MS = 1000;

/**
 * Writes that record work as done (an outbox entry deleted after its delivery, a notification claim
 * released after its send), kept and tried again while the store is away. Without them the work's
 * claim would run out and another instance would take it over and do it a second time.
 * Each write must be safe to repeat (conditional on the claim it ends).
 */
export class PendingWrites {
  private readonly kept = new Map<string, () => Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly outage: OutageLog,
    private readonly retryMs = PENDING_WRITE_RETRY_MS,
  ) {}

  /** Writes now; if the store is away, keeps the write (under `key`) and tries it again until it lands. Never throws. */
  async run(key: string, write: () => Promise<unknown>, failure: string): Promise<void> {
    if (await this.attempt(write, failure)) return;
    if (this.closed) return;
    this.kept.set(key, write);
    this.arm(failure);
  }

  /** True while the write under `key` waits for the store (its work is done, though the store does not know yet). */
  has(key: string): boolean {
    return this.kept.has(key);
  }

  get size(): number {
    return this.kept.size;
  }

  /** Tries every kept write now, one at a time; rejects (with what it met) at the first that finds the store still away. */
  async retry(failure = 'a pending write failed'): Promise<void> {
    for (const [key, write] of [...this.kept]) {
      try {
        await write();
        this.outage.answered();
      } catch (error) {
        if (this.outage.report(error, failure)) throw error;
      }
      this.kept.delete(key);
    }
  }

  /** One last try; what still cannot be written is given up (its claim runs out and it is taken over). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.retry().catch(() => undefined);
    this.kept.clear();
  }

  /** True once written, or failed for good (any fault but the store being away: reported, dropped, repeating would not mend it). */
  private async attempt(write: () => Promise<unknown>, failure: string): Promise<boolean> {
    try {
      await write();
      this.outage.answered();
      return true;
    } catch (error) {
      return !this.outage.report(error, failure);
    }
  }

  private arm(failure: string): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retry(failure)
        .catch(() => undefined)
        .finally(() => {
          if (this.kept.size > 0) this.arm(failure);
        });
    }, this.retryMs);
    this.timer.unref();
  }
}
