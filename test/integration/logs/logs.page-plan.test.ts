import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';
import { pageStatement } from '../../../src/features/logs/logs.page.js';
import type { PageRequest } from '../../../src/features/logs/logs.page.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * A page of `GET /token/logs` costs its n + 1 rows per category, whatever the wallet's log holds: each category's
 * range is read newest first straight from the index (wallet, category, time, then order of writing), never
 * sorted. Read from the engines' plans; on PostgreSQL without statistics (as after a burst of writes, before the
 * next ANALYZE), where a sort of the whole range would otherwise be planned.
 */
describeEachStore('GET /token/logs: a page reads its rows from the index in order', (kind) => {
  const get = useTestApp(kind);

  beforeAll(async () => {
    const rows: LogRecord[] = [];
    for (let i = 0; i < 600; i++)
      rows.push({
        id: `plan-${i}`,
        walletId: 1,
        method: 'GET',
        path: `/kv/b/${i}`,
        endpoint: i % 3 === 0 ? 'token' : 'kv',
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: NOW - 600 + Math.floor(i / 2),
        cost: 1,
        balance: 1,
      });
    await insertLogs(get().deps.store, rows);
  });

  async function plan(sql: string, params: readonly unknown[]): Promise<string[]> {
    const { store } = get().deps;
    if (kind === 'sqlite') {
      const rows = await store.read.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
      return rows.map((row) => row.detail);
    }
    return store.write(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      await tx.run('SET LOCAL enable_bitmapscan = off');
      const rows = await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((row) => row['QUERY PLAN']);
    });
  }

  const request = (category?: 'kv'): PageRequest => ({ walletId: 1, n: 20, before: { createdAt: NOW, seq: Number.MAX_SAFE_INTEGER }, since: 0, category });

  it.each([
    ['one category', request('kv')],
    ['every category', request()],
  ])('%s: each range walks the index newest first, with no sort of its own', async (_case, page) => {
    const statement = pageStatement(page);
    const lines = (await plan(statement.sql, statement.params)).filter((line) => !/Index Cond|Filter:/.test(line));
    const shown = lines.join('\n');
    const walk = kind === 'sqlite' ? /SEARCH logs USING (COVERING )?INDEX logs_wallet_endpoint_time/ : /Index Scan Backward using logs_wallet_endpoint_time/;
    const walks = lines.flatMap((line, i) => (walk.test(line) ? [i] : []));
    expect(walks.length, shown).toBe(page.category === undefined ? 9 : 1);
    // Each walk is what its category's LIMIT reads from: nothing sorts the range in between, so the walk stops after n + 1
    // rows. (SQLite may sort each category's n + 1 rows afterwards, for the merge; that is outside the walk.)
    for (const i of walks) {
      if (kind === 'sqlite') expect(lines[i + 1] ?? '', shown).not.toMatch(/TEMP B-TREE/);
      else expect(lines[i - 1], shown).toMatch(/^\s*(->\s+)?Limit\b/);
    }
  });
});
