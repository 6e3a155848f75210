import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';
import { logPage, pageStatement, SCAN_ROWS } from '../../../src/features/logs/logs.page.js';
import type { PageRequest } from '../../../src/features/logs/logs.page.js';
import { LOG_CATEGORIES, LOG_RETENTION_MS } from '../../../src/ledger/log-entry.js';
import { NEWEST } from '../../../src/features/logs/logs.cursor.js';
import { insertNumberedRows } from '../../helpers/numbered-rows.js';
import { entriesReadBy, recordingSql } from '../../helpers/query-plans.js';
import type { RunStatement } from '../../helpers/query-plans.js';

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
    const statement = pageStatement(get().deps.store.mergeWalks, page);
    const lines = (await plan(statement.sql, statement.params)).filter((line) => !/Index Cond|Filter:/.test(line));
    const shown = lines.join('\n');
    const walk =
      kind === 'sqlite'
        ? /SEARCH logs USING (COVERING )?INDEX logs_wallet_endpoint_time/
        : /Index Scan Backward using logs_wallet_endpoint_time/;
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

/**
 * A filtered call without `type` finds where its scan ends from about SCAN_ROWS positions, however many entries
 * each category holds: the categories' index walks are merged as they go (on SQLite each walk was once sorted on
 * its own first: SCAN_ROWS + 1 positions of every category, nine times the scan), and its page then reads what lies
 * before that end. Counted from PostgreSQL's executed plans; read from SQLite's plans: index walks only, no sort.
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

  /** The statements `logPage` runs for a filtered call that matches nothing, with what it answered. */
  async function statementsOfAFilteredPage(): Promise<{ statements: RunStatement[]; rows: number }> {
    const { store } = get().deps;
    const { sql: recording, statements } = recordingSql(store.read);
    const page = await logPage(
      { read: recording, mergeWalks: store.mergeWalks },
      {
        walletId: WALLET,
        n: 10,
        before: { createdAt: NOW, seq: Number.MAX_SAFE_INTEGER },
        since: 0,
        status: { from: 500, to: 600 },
      },
    );
    expect(page.next).toBeDefined(); // the scan ended before the log did
    return { statements, rows: page.rows.length };
  }

  it('finds the end of its scan from about SCAN_ROWS index entries, and reads no more than SCAN_ROWS rows before it', async () => {
    const { statements, rows } = await statementsOfAFilteredPage();
    expect(rows).toBe(0);
    const { store } = get().deps;
    const scanStatements = statements.slice(0, -1);
    const pageStatementRun = statements.at(-1) as RunStatement;
    if (kind === 'sqlite') {
      for (const { sql, params } of scanStatements) {
        const details = (await store.read.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map(
          (row) => row.detail,
        );
        const walks = details.filter((detail) =>
          /SEARCH logs USING COVERING INDEX logs_wallet_endpoint_time/.test(detail),
        );
        expect(walks.length, details.join('\n')).toBeGreaterThan(0);
        expect(
          details.filter((detail) => /SEARCH logs USING INDEX|SCAN logs|TEMP B-TREE/.test(detail)),
          details.join('\n'),
        ).toEqual([]);
      }
      // The page merges its walks as they go too: no sort of the rows they yield (each walk once sorted its n + 1 rows).
      const details = (
        await store.read.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${pageStatementRun.sql}`, pageStatementRun.params)
      ).map((row) => row.detail);
      expect(
        details.filter((detail) => /SEARCH logs USING INDEX logs_wallet_endpoint_time/.test(detail)).length,
        details.join('\n'),
      ).toBe(LOG_CATEGORIES.length);
      expect(
        details.filter((detail) => /SCAN logs|TEMP B-TREE/.test(detail)),
        details.join('\n'),
      ).toEqual([]);
      return;
    }
    const read = (statement: RunStatement): Promise<number> => entriesReadBy(store, statement);
    let scanned = 0;
    for (const statement of scanStatements) scanned += await read(statement);
    expect(scanned).toBeGreaterThan(SCAN_ROWS);
    expect(scanned).toBeLessThanOrEqual(SCAN_ROWS + 2 * LOG_CATEGORIES.length);
    const paged = await read(pageStatementRun);
    expect(paged).toBeGreaterThan(SCAN_ROWS / 2);
    expect(paged).toBeLessThanOrEqual(SCAN_ROWS + LOG_CATEGORIES.length);
  });
});

/**
 * A filtered page that finds fewer than n matches stops at the end of its scan, whatever lies beyond it: the week of
 * the free budget (60 rows a minute, about 600,000 entries) costs a call no more than a short log does. The page's
 * range has one lower bound on time, the scan's end: given it and the retention cut, SQLite bounded its index walk
 * by the cut alone (its plan reads the same either way) and walked every entry down to it. Checked from the statement
 * the page ran, and by a generous time on the week-long log (the walk to the cut took 40 ms and more here).
 */
describeEachStore('GET /token/logs: a filtered page of a week-long log stops where its scan ends', (kind) => {
  const get = useTestApp(kind);
  const WALLET = 3;
  const WEEK_OF_FREE_ROWS = 600_000;

  beforeAll(async () => {
    // One entry per second, the newest a minute before NOW; none is a 599.
    await insertNumberedRows(
      get().deps.store,
      'logs',
      'id, wallet_id, method, path, endpoint, status_code, response_time_ms, created_at, cost, balance',
      WEEK_OF_FREE_ROWS,
      `'week-' || i, ${WALLET}, 'GET', '/token/logs', 'token', 200, 1, ${NOW - 60_000 - WEEK_OF_FREE_ROWS * 1000} + i * 1000, 0, 0`,
    );
  }, 300_000);

  const request: PageRequest = {
    walletId: WALLET,
    n: 100,
    before: NEWEST,
    since: NOW - LOG_RETENTION_MS,
    status: { from: 599, to: 600 },
  };

  it("reads its page's rows from a range of the index that ends at the scan's end", async () => {
    const { store } = get().deps;
    const { sql: recording, statements } = recordingSql(store.read);
    const page = await logPage({ read: recording, mergeWalks: store.mergeWalks }, request);
    // The scan ended at the SCAN_ROWS + 1st newest entry: the next page starts there.
    const end = NOW - 60_000 - (SCAN_ROWS + 1) * 1000;
    expect(page.rows).toEqual([]);
    expect(page.next?.createdAt).toBe(end);
    const pageRun = statements.at(-1) as RunStatement;
    // Every lower bound on time of the page's walks, one per category (a bare `created_at >` term; the tie-break's is in
    // parentheses): each is the scan's end, and nothing else.
    const lowerBounds = [...pageRun.sql.matchAll(/(?<!\()created_at >=? \$(\d+)/g)].map(
      (match) => pageRun.params[Number(match[1]) - 1],
    );
    expect(lowerBounds).toEqual(LOG_CATEGORIES.map(() => end - 1));
  });

  it('takes well under 25 ms, where walking to the retention cut took far more', async () => {
    const { store } = get().deps;
    await logPage(store, request); // warm the statement and the pages it reads
    // The fastest of several calls: what the call itself costs, without the other processes of a busy host.
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      await logPage(store, request);
      times.push(performance.now() - started);
    }
    expect(Math.min(...times), times.map((t) => t.toFixed(1)).join(' ')).toBeLessThan(25);
  });
});
