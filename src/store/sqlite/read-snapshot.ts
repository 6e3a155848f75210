import type Database from 'better-sqlite3';

/**
 * The reads of one event-loop turn share one read transaction on SQLite's reader connection. In WAL mode a statement
 * outside a transaction begins and ends a read transaction of its own, which costs more than a point lookup itself
 * (~3 µs against ~1.4 µs for a KV read; bench/RESULTS.md): every read of the hot path paid it.
 *
 * Reads see exactly what they saw before: the writer drops the snapshot right before each of its COMMITs, so a read
 * after a commit begins a new one, and this process is the file's only writer (docs/operations.md#one-instance). So a read
 * still sees every write committed (and so every write acknowledged) before it. It ends with the turn anyway, so
 * the WAL checkpoint is never held back past a turn and an idle service holds no snapshot.
 */
export class ReadSnapshot {
  private readonly begin: Database.Statement;
  private readonly end: Database.Statement;
  private endScheduled = false;
  private readonly endOfTurn = (): void => {
    this.endScheduled = false;
    this.release();
  };

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN');
    this.end = db.prepare('COMMIT');
  }

  /** Before a read: joins the open snapshot, or begins one (taken by the read itself) that lasts until the next commit or the end of the turn. */
  enter(): void {
    if (this.db.inTransaction) return;
    this.begin.run();
    if (this.endScheduled) return;
    this.endScheduled = true;
    setImmediate(this.endOfTurn);
  }

  /** Ends the open snapshot, if any: before every commit of the writer, and at the end of the turn. */
  release(): void {
    if (this.db.inTransaction) this.end.run();
  }
}
