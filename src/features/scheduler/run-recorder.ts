import type { Store } from '../../store/store.js';
import { recordRuns } from './scheduler.queries.js';
import type { RunRecord } from './scheduler.queries.js';

/**
 * Collects run outcomes off the delivery path and writes them in batches (one statement per batch
 * on PostgreSQL), so recording 10,000 runs is not 10,000 round trips. A pass flushes before it ends,
 * so its outcomes are readable once `runDueSchedules` resolves.
 */
export class RunRecorder {
  private pending: RunRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown, lost: number) => void,
    private readonly maxBatch = 200,
    private readonly maxDelayMs = 50,
  ) {}

  add(record: RunRecord): void {
    this.pending.push(record);
    if (this.pending.length >= this.maxBatch) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.maxDelayMs);
      this.timer.unref();
    }
  }

  /** Writes everything added so far; resolves once it is committed (or reported as failed). */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await recordRuns(this.store, batch);
      } catch (error) {
        // Only the display of the last outcome is lost; the runs themselves happened.
        this.onError(error, batch.length);
      }
    });
    return this.flushing;
  }
}
