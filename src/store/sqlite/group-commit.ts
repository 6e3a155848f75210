import type { Sql } from '../store.js';
import type { SqliteConnection } from './sqlite-store.js';

interface Pending {
  readonly unit: (tx: Sql) => Promise<unknown>;
  readonly isolated: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: every write unit queued during one event-loop turn runs in one transaction,
 * and each caller is answered only after that transaction committed. One fsync then serves
 * many requests, which is what lets a durable charge per request keep up with the HTTP layer.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly connection: SqliteConnection) {}

  enqueue<T>(unit: (tx: Sql) => Promise<T>, isolated: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, isolated, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.running = this.running.then(() => this.flush());
        });
      }
    });
  }

  /** Waits until everything queued so far is committed. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled) {
      await new Promise((resolve) => setImmediate(resolve));
      await this.running;
    }
    await this.running;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const db = this.connection.db;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      // Multi-statement units get a savepoint so one failing unit never takes its neighbours down.
      if (item.isolated) db.exec('SAVEPOINT unit');
      try {
        const value = await item.unit(this.connection);
        if (item.isolated) db.exec('RELEASE unit');
        outcomes.push({ ok: true, value });
      } catch (error) {
        if (item.isolated) {
          db.exec('ROLLBACK TO unit');
          db.exec('RELEASE unit');
        }
        outcomes.push({ ok: false, error });
      }
    }
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
  }
}
