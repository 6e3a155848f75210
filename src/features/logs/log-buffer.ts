import type { Store } from '../../store/store.js';
import { WriteBuffer } from '../../lib/write-buffer.js';
import type { LogRecord } from './log-entry.js';
import { insertLogs } from './logs.queries.js';

/**
 * Call-log rows, written off the hot path in batches: at most 500 ms late (SPEC allows entries to appear
 * a few seconds late), 100 rows at a time (writing them never stalls the event loop for long: ~0.5 ms on
 * SQLite); while the store fails, the newest 50,000 rows are kept for the next attempt.
 */
export class LogBuffer {
  private readonly buffer: WriteBuffer<LogRecord>;

  constructor(store: Store, onError: (error: unknown, dropped: number) => void) {
    this.buffer = new WriteBuffer((batch) => insertLogs(store, batch), onError, { maxBatch: 100, maxDelayMs: 500, keepOnFailure: 50_000 });
  }

  push(record: LogRecord): void {
    this.buffer.add(record);
  }

  /** Writes everything pushed so far; resolves once it is committed (or reported as failed). */
  flush(): Promise<void> {
    return this.buffer.flush();
  }
}
