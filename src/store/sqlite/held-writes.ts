import type { SyncRun } from '../store.js';

type Flush = (run: SyncRun) => void;

/**
 * Writes kept in memory by their owner and applied on the writer connection before anything else
 * could observe the table they change: before the next statement declared to touch the table (or not
 * declared at all), before any multi-statement unit, and before COMMIT. The owner merges many small
 * writes into one (the hot path merges the charges of one wallet in one group commit into one UPDATE).
 */
export class HeldWrites {
  private readonly byTable = new Map<string, Flush[]>();

  get empty(): boolean {
    return this.byTable.size === 0;
  }

  hold(table: string, flush: Flush): void {
    const flushes = this.byTable.get(table);
    if (flushes === undefined) this.byTable.set(table, [flush]);
    else flushes.push(flush);
  }

  /** Applies the writes held for the tables in `touches` (all of them without it). Throws the first failure after applying the rest. */
  flush(run: SyncRun, touches?: readonly string[]): void {
    let failure: unknown;
    for (const [table, flushes] of this.byTable) {
      if (touches !== undefined && !touches.includes(table)) continue;
      this.byTable.delete(table);
      for (const flush of flushes) {
        try {
          flush(run);
        } catch (error) {
          failure ??= error;
        }
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what was caught, unchanged.
    if (failure !== undefined) throw failure;
  }
}
