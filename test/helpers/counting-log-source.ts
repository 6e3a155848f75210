import type { Sql } from '../../src/store/store.js';
import type { LogSource } from '../../src/features/logs/logs.page.js';

/** `source`, counting the log batches and entries its reads return. */
export function countingSource(source: LogSource): {
  source: LogSource;
  read: { statements: number; batches: number; entries: number };
} {
  const read = { statements: 0, batches: 0, entries: 0 };
  const all: Sql['all'] = async <T>(text: string, params?: readonly unknown[]) => {
    const rows = await source.read.all<T>(text, params);
    read.statements++;
    for (const row of rows as { entries?: string }[])
      if (row.entries !== undefined) {
        read.batches++;
        read.entries += (JSON.parse(row.entries) as unknown[]).length;
      }
    return rows;
  };
  return { source: { read: { ...source.read, all }, mergeWalks: source.mergeWalks }, read };
}
