import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { countingSource } from '../../helpers/counting-log-source.js';
import { logPage, SCAN_ROWS } from '../../../src/features/logs/logs.page.js';
import type { PageRequest } from '../../../src/features/logs/logs.page.js';
import { LOG_RETENTION_MS } from '../../../src/ledger/log-entry.js';
import { NEWEST } from '../../../src/features/logs/logs.cursor.js';
import { insertNumberedRows } from '../../helpers/numbered-rows.js';
import { scratchDatabase } from '../../helpers/stores.js';
import { openStore } from '../../../src/store/open-store.js';
import type { Store } from '../../../src/store/store.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * A filtered page that finds fewer than n matches stops at the end of its scan, whatever lies beyond it: the week of
 * the free budget (60 entries a minute, about 600,000, each in a batch of its own as a quiet wallet's are) costs a
 * call no more than a short log does. Checked from what the page read, and by timing the page against the same page
 * on a short log in a store of its own, measured in the same run (a plan that grew with the table would show there).
 */
describeEachStore('GET /token/logs: a filtered page of a week-long log stops where its scan ends', (kind) => {
  const get = useTestApp(kind);
  const WALLET = 3;
  const WEEK_OF_FREE_ROWS = 600_000;
  const FIRST = NOW - 60_000 - WEEK_OF_FREE_ROWS * 1000;

  const COLUMNS = 'wallet_id, endpoint, first_at, last_at, entry_count, entries';
  /** One entry per second from `first`, each in a batch of its own; none is a 599. */
  const rowsOf = (first: number): string => {
    const at = `(${first} + i * 1000)`;
    return `${WALLET}, 'token', ${at}, ${at}, 1, '[["week-' || i || '","GET","/token/logs",200,1,null,' || ${at} || ',0,0,null,null]]'`;
  };
  /** More than any scan reads (it reads fewer than 2 × SCAN_ROWS batches, as the first test checks). */
  const SHORT_LOG_ROWS = 2 * SCAN_ROWS;

  beforeAll(async () => {
    // The newest a minute before NOW.
    await insertNumberedRows(get().deps.store, 'log_batches', COLUMNS, WEEK_OF_FREE_ROWS, rowsOf(FIRST));
  }, 300_000);

  const request: PageRequest = {
    walletId: WALLET,
    n: 100,
    before: NEWEST,
    since: NOW - LOG_RETENTION_MS,
    status: { from: 599, to: 600 },
  };

  it('reads the batches of its scan and not many more', async () => {
    const { store } = get().deps;
    const { source, read } = countingSource(store);
    const page = await logPage(source, request);
    // The scan ended at the SCAN_ROWS + 1st newest entry: the next page starts there.
    expect(page.rows).toEqual([]);
    expect(page.next?.createdAt).toBe(NOW - 60_000 - (SCAN_ROWS + 1) * 1000);
    expect(read.batches).toBeGreaterThan(SCAN_ROWS);
    // One entry a batch: the SCAN_ROWS + 1 batches of the scan and the one more its last chunk asks for, no more
    // (a chunk twice the last one's, as the walk grows, would have read 6,140).
    expect(read.batches).toBeLessThanOrEqual(SCAN_ROWS + 2);
  });

  /** The fastest of several calls: what the call itself costs, without the other processes of a busy host. */
  async function fastestPage(store: Store): Promise<number> {
    await logPage(store, request); // warm the statements and the pages they read
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      await logPage(store, request);
      times.push(performance.now() - started);
    }
    return Math.min(...times);
  }

  it('takes no longer than the same page on a log of one scan (measured alike, in the same run)', async () => {
    // The short log: every batch one scan reads and no more than twice that, alone in a store of its own.
    const database = await scratchDatabase(kind);
    const short = openStore(database.url);
    try {
      await short.migrate();
      await insertNumberedRows(
        short,
        'log_batches',
        COLUMNS,
        SHORT_LOG_ROWS,
        rowsOf(NOW - 60_000 - SHORT_LOG_ROWS * 1000),
      );
      const { store } = get().deps;
      // Interleaved, so the host's drift falls on both alike.
      const week: number[] = [];
      const oneScan: number[] = [];
      for (let round = 0; round < 3; round++) {
        week.push(await fastestPage(store));
        oneScan.push(await fastestPage(short));
      }
      const [weekMs, oneScanMs] = [Math.min(...week), Math.min(...oneScan)];
      expect(
        weekMs,
        `week ${week.map((t) => t.toFixed(1)).join(' ')}; one scan ${oneScan.map((t) => t.toFixed(1)).join(' ')}`,
      ).toBeLessThan(1.5 * oneScanMs + 2);
    } finally {
      await short.close();
      await database.drop();
    }
  }, 120_000);
});
