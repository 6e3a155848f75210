import type { Store } from '../store/store.js';

/** What one sweep pass hands every owner's retention step. */
export interface SweepPass {
  readonly now: number;
  /** Also walk whole tables for expired rows the quick pass cannot reach (the call log's rows written late). */
  readonly walkAll: boolean;
}

/**
 * One owner's retention: it deletes its own expired rows (the table's owner alone knows its keys, its
 * indexes and who else writes it) and says how many went. The sweeper only runs the steps, in order.
 */
export interface RetentionStep {
  /** The key of its count in the sweep's report. */
  readonly name: string;
  run(pass: SweepPass): Promise<number>;
}

/** Rows one DELETE of a step takes at most: a statement this short never holds the write lock for long. */
export const SWEEP_BATCH = 1000;

/**
 * Runs `sql` (a DELETE of at most `batch` rows, `RETURNING 1 AS n`, or each row's count of entries as `n`) until a
 * batch comes back short, and returns the sum of `n` over every row that went.
 */
export async function deleteInBatches(
  store: Pick<Store, 'writeOne'>,
  sql: string,
  params: readonly unknown[],
  batch = SWEEP_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await store.writeOne<{ n: number | string }>(sql, params);
    for (const row of rows) total += Number(row.n);
    if (rows.length < batch) return total;
  }
}
