import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { countingSource } from '../../helpers/counting-log-source.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';
import { chunkStatement, logPage, SCAN_ROWS } from '../../../src/features/logs/logs.page.js';
import type { PageRequest } from '../../../src/features/logs/logs.page.js';
import { LOG_CATEGORIES } from '../../../src/ledger/log-entry.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * A page of `GET /token/logs` walks the log's batches newest first, one range of the index (wallet, category, newest
 * entry's time, seq) per category, merged as they go: never a sort of a category's whole range. Read from the engines'
 * plans; on PostgreSQL without statistics (as after a burst of writes, before the next ANALYZE), where a sort of the
 * whole range would otherwise be planned.
 */
describeEachStore('GET /token/logs: a page walks the batch index in order', (kind) => {
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
        createdAt: NOW - 600_000 + i * 1000,
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

  const request = (category?: 'kv'): PageRequest => ({
    walletId: 1,
    n: 20,
    before: { createdAt: NOW, seq: Number.MAX_SAFE_INTEGER },
    since: 0,
    category,
  });

  it.each([
    ['one category', request('kv')],
    ['every category', request()],
  ])('%s: each range walks the index newest first, with no sort of its own', async (_case, page) => {
    const statement = chunkStatement(get().deps.store.mergeWalks, page, { lastAt: NOW, seq: 1e15 }, 8);
    const lines = (await plan(statement.sql, statement.params)).filter((line) => !/Index Cond|Filter:/.test(line));
    const shown = lines.join('\n');
    const walk =
      kind === 'sqlite'
        ? /SEARCH log_batches USING INDEX log_batches_wallet_endpoint_last/
        : /Index Scan Backward using log_batches_wallet_endpoint_last/;
    const walks = lines.flatMap((line, i) => (walk.test(line) ? [i] : []));
    expect(walks.length, shown).toBe(page.category === undefined ? 9 : 1);
    // Each walk is what its category's LIMIT reads from: nothing sorts the range in between, so the walk stops after
    // the chunk's batches. (SQLite may sort each category's few batches afterwards, for the merge; that is outside the walk.)
    for (const i of walks) {
      if (kind === 'sqlite') expect(lines[i + 1] ?? '', shown).not.toMatch(/TEMP B-TREE/);
      else expect(lines[i - 1], shown).toMatch(/^\s*(->\s+)?Limit\b/);
    }
  });

  it('reads the batches of the n newest entries and a few more, not the range', async () => {
    const { source, read } = countingSource(get().deps.store);
    const page = await logPage(source, request('kv'));
    expect(page.rows.map((row) => row.id)).toEqual(
      Array.from({ length: 600 }, (_, i) => 599 - i)
        .filter((i) => i % 3 !== 0)
        .slice(0, 20)
        .map((i) => `plan-${i}`),
    );
    // 400 kv entries in batches of two (their span allows two a second): the page needs 11 batches.
    expect(read.batches).toBeLessThanOrEqual(2 * 11 + 4);
  });
});

/**
 * A filtered call that matches nothing looks at about SCAN_ROWS entries, however many each category holds: the
 * categories' walks are merged as they go, and a page reads batches chunk after chunk, each at most twice the last, until
 * SCAN_ROWS + 1 entries are settled. Counted from what its statements return.
 */
describeEachStore('GET /token/logs: a filtered page reads a bounded part of the log', (kind) => {
  const get = useTestApp(kind);
  const PER_CATEGORY = SCAN_ROWS; // every category could fill the scan alone
  const WALLET = 2;

  beforeAll(async () => {
    const rows: LogRecord[] = [];
    for (let i = 0; i < PER_CATEGORY * LOG_CATEGORIES.length; i++)
      rows.push({
        id: `bounded-${i}`,
        walletId: WALLET,
        method: 'GET',
        path: `/kv/b/${i}`,
        endpoint: LOG_CATEGORIES[i % LOG_CATEGORIES.length] as (typeof LOG_CATEGORIES)[number],
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: NOW - 100_000 + i,
        cost: 1,
        balance: 1,
      });
    await insertLogs(get().deps.store, rows);
  }, 120_000);

  it('reads more than SCAN_ROWS entries and fewer than twice as many, and matches none', async () => {
    const { source, read } = countingSource(get().deps.store);
    const page = await logPage(source, {
      walletId: WALLET,
      n: 10,
      before: { createdAt: NOW, seq: Number.MAX_SAFE_INTEGER },
      since: 0,
      status: { from: 500, to: 600 },
    });
    expect(page.rows).toEqual([]);
    expect(page.next).toBeDefined(); // the scan ended before the log did
    expect(read.entries).toBeGreaterThan(SCAN_ROWS);
    expect(read.entries).toBeLessThan(2 * SCAN_ROWS);
  });
});
