import type { SyncRun } from '../store.js';

type Flush = (run: SyncRun) => void;

/**
 * Writes kept in memory by their owner and applied on the writer connection before anything else
 * could observe the table they change: before the next statement whose text names the table, before
 * any multi-statement unit, and before COMMIT. The owner merges many small writes into one (the hot
 * path merges the charges of one wallet in one group commit into one UPDATE).
 */
export class HeldWrites {
  private readonly byTable = new Map<string, Flush[]>();
  /** Whether a statement text names a table, decided once per distinct text. */
  private readonly naming = new Map<string, Map<string, boolean>>();

  get empty(): boolean {
    return this.byTable.size === 0;
  }

  hold(table: string, flush: Flush): void {
    const flushes = this.byTable.get(table);
    if (flushes === undefined) this.byTable.set(table, [flush]);
    else flushes.push(flush);
  }

  /** Applies the writes held for tables `sql` names (all of them without `sql`). Throws the first failure after applying the rest. */
  flush(run: SyncRun, sql?: string): void {
    let failure: unknown;
    for (const [table, flushes] of this.byTable) {
      if (sql !== undefined && !this.names(sql, table)) continue;
      this.byTable.delete(table);
      for (const flush of flushes) {
        try {
          flush(run);
        } catch (error) {
          failure ??= error;
        }
      }
    }
    if (failure !== undefined) throw failure;
  }

  private names(sql: string, table: string): boolean {
    let texts = this.naming.get(table);
    if (texts === undefined) {
      texts = new Map();
      this.naming.set(table, texts);
    }
    let named = texts.get(sql);
    if (named === undefined) {
      named = new RegExp(`\\b${table}\\b`, 'i').test(sql);
      texts.set(sql, named);
    }
    return named;
  }
}
