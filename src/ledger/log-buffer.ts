import type { Store } from '../store/store.js';
import { WriteBuffer } from '../lib/write-buffer.js';
import { logId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import { cutText } from '../lib/cut-text.js';
import type { LogEntry, LogRecord } from './log-entry.js';
import { MAX_LOG_TEXT } from './log-entry.js';
import { insertLogs } from './log-insert.js';

/**
 * Call-log rows, written off the hot path in batches: at most 500 ms late (docs/contract.md#call-logs allows entries to appear
 * a few seconds late), up to 512 rows at a time. On PostgreSQL each write is a statement whose fixed cost (the round
 * trip, the commit, the spend totals' upserts) falls on the database's core: 512 rather than 100 was +8 % `GET /kv`
 * req/s there (bench/RESULTS.md, "twenty-second session"), and neutral on SQLite, where a write of 512 holds the event
 * loop ~0.5 ms (2.7 ms with every path and error at its longest). While the store fails, the newest 50,000 rows are
 * kept for the next attempt.
 */
export class LogBuffer {
  private readonly buffer: WriteBuffer<LogRecord>;

  /** `syncLater`: batches commit without waiting for the disk (READ_CHARGES=deferred, see insertLogs). */
  constructor(
    store: Store,
    private readonly clock: Clock,
    onError: (error: unknown, dropped: number) => void,
    syncLater = false,
  ) {
    this.buffer = new WriteBuffer((batch) => insertLogs(store, batch, syncLater), onError, {
      maxBatch: 512,
      maxDelayMs: 500,
      keepOnFailure: 50_000,
    });
  }

  /** Records a call now; the entry gets its id and creation time here. */
  push(entry: LogEntry): void {
    // Field by field rather than a spread: one object of one shape per call (this runs for every request).
    this.buffer.add({
      id: logId(),
      walletId: entry.walletId,
      method: entry.method,
      // Paths and errors can carry the caller's input (a 15 KB query string): stored bounded, marked when cut.
      path: cutText(entry.path, MAX_LOG_TEXT),
      endpoint: entry.endpoint,
      statusCode: entry.statusCode,
      responseTimeMs: entry.responseTimeMs,
      error: entry.error === undefined ? undefined : cutText(entry.error, MAX_LOG_TEXT),
      createdAt: this.clock.now(),
      cost: entry.cost,
      balance: entry.balance,
      deliveryId: entry.deliveryId,
      note: entry.note,
    });
  }

  /** Rows not yet written. */
  get waiting(): number {
    return this.buffer.size;
  }

  /** Writes everything pushed so far; resolves once it is committed (or reported as failed). */
  flush(): Promise<void> {
    return this.buffer.flush();
  }
}
