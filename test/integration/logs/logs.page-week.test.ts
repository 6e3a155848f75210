import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { countingSource } from '../../helpers/counting-log-source.js';
import { logPage, SCAN_ROWS } from '../../../src/features/logs/logs.page.js';
import type { PageRequest } from '../../../src/features/logs/logs.page.js';
import { LOG_RETENTION_MS } from '../../../src/ledger/log-entry.js';
import { NEWEST } from '../../../src/features/logs/logs.cursor.js';
import { insertNumberedRows } from '../../helpers/numbered-rows.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * A filtered page that finds fewer than n matches stops at the end of its scan, whatever lies beyond it: the week of
 * the free budget (60 entries a minute, about 600,000, each in a batch of its own as a quiet wallet's are) costs a
 * call no more than a short log does. Checked from what the page read, and by a generous time on the week-long log.
 */
describeEachStore('GET /token/logs: a filtered page of a week-long log stops where its scan ends', (kind) => {
  const get = useTestApp(kind);
  const WALLET = 3;
  const WEEK_OF_FREE_ROWS = 600_000;
  const FIRST = NOW - 60_000 - WEEK_OF_FREE_ROWS * 1000;

  beforeAll(async () => {
    // One entry per second, the newest a minute before NOW; none is a 599.
    const at = `(${FIRST} + i * 1000)`;
    await insertNumberedRows(
      get().deps.store,
      'log_batches',
      'wallet_id, endpoint, first_at, last_at, entry_count, entries',
      WEEK_OF_FREE_ROWS,
      `${WALLET}, 'token', ${at}, ${at}, 1, '[["week-' || i || '","GET","/token/logs",200,1,null,' || ${at} || ',0,0,null,null]]'`,
    );
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
    expect(read.batches).toBeLessThan(2 * SCAN_ROWS);
  });

  it('takes well under 25 ms', async () => {
    const { store } = get().deps;
    await logPage(store, request); // warm the statements and the pages they read
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
