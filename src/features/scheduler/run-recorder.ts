import type { Store } from '../../store/store.js';
import { WriteBuffer } from '../../lib/write-buffer.js';
import { recordRuns } from './scheduler.queries.js';
import type { RunRecord } from './scheduler.queries.js';

/**
 * Run outcomes, written off the delivery path in batches (one statement per batch on PostgreSQL), so
 * recording 10,000 runs is not 10,000 round trips. A pass flushes before it ends, so its outcomes are
 * readable once `runDueSchedules` resolves. A failed write loses only the display of the last outcome;
 * the runs themselves happened.
 */
export class RunRecorder extends WriteBuffer<RunRecord> {
  constructor(store: Store, onError: (error: unknown, lost: number) => void) {
    super((batch) => recordRuns(store, batch), onError, { maxBatch: 200, maxDelayMs: 50, keepOnFailure: 0 });
  }
}
