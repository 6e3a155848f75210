import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import { LOG_CATEGORIES } from '../../../src/ledger/log-entry.js';
import type { LogCategory, LogRecord } from '../../../src/ledger/log-entry.js';
import { SCAN_ROWS } from '../../../src/features/logs/logs.page.js';
import { decodeCursor } from '../../../src/features/logs/logs.cursor.js';
import { HOUR, MINUTE } from '../../../src/lib/time.js';

/** GET /token/logs beyond the contract: cursor paging and the status and path filters (docs/reference.md#call-logs). */

const PLAIN = 'text/plain; charset=utf-8';

interface Entry {
  id: string;
  path: string;
  endpoint: string;
  status_code: number;
  timestamp: string;
}
interface Page {
  logs: Entry[];
  n: number;
  cursor: string | null;
}

function record(walletId: number, i: number, createdAt: number, fields: Partial<LogRecord> = {}): LogRecord {
  return {
    id: `row-${walletId}-${i}`,
    walletId,
    method: 'GET',
    path: `/kv/paged/${i}`,
    endpoint: 'kv',
    statusCode: 200,
    responseTimeMs: 1,
    createdAt,
    cost: 1,
    balance: 100,
    ...fields,
  };
}

/**
 * `ids` are every one of `rows` once, newest first: times never increase, and entries of one category and millisecond
 * come in the reverse of their order in `rows` (the order of writing). Entries of different categories in one
 * millisecond come in the order their batches were written (docs/reference.md#call-logs), which this does not fix.
 */
function expectNewestFirst(ids: readonly string[], rows: readonly LogRecord[]): void {
  expect([...ids].sort()).toEqual(rows.map((row) => row.id).sort());
  const index = new Map(rows.map((row, i) => [row.id, i]));
  const shown = ids.map((id) => rows[index.get(id) as number] as LogRecord);
  for (let i = 1; i < shown.length; i++) {
    const [newer, older] = [shown[i - 1] as LogRecord, shown[i] as LogRecord];
    expect(newer.createdAt, `${newer.id} before ${older.id}`).toBeGreaterThanOrEqual(older.createdAt);
    if (newer.createdAt === older.createdAt && newer.endpoint === older.endpoint)
      expect(index.get(newer.id), `${newer.id} before ${older.id}`).toBeGreaterThan(index.get(older.id) as number);
  }
}

/** Every page of a query, following cursors until null; the answers as they came. */
async function allPages(t: TestApp, token: string, query: string, maxCalls = 100): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/token/logs?${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
    const res = await t.inject({ method: 'GET', url, headers: { 'x-token': token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cost']).toBe('0');
    const page = res.json() as Page;
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== null && pages.length < maxCalls);
  expect(cursor).toBeNull();
  return pages;
}

describeEachStore('GET /token/logs paging and filters (beyond the contract)', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  /**
   * A wallet whose log holds what `writers(walletId)` gives, all older than now (so the paging calls' own entries come
   * after them): each list written apart, in batches of its own, as each instance of several writes its own.
   */
  async function walletWrittenBy(writers: (walletId: number) => LogRecord[][]) {
    const t = get();
    const token = await t.createToken(1000);
    const walletId = await walletIdOf(t.deps, token);
    const lists = writers(walletId);
    for (const list of lists) await insertLogs(t.deps.store, list);
    return { t, token, walletId, rows: lists.flat() };
  }

  /** A wallet whose log holds `records(walletId)`, written by one instance. */
  const walletWithRows = (records: (walletId: number) => LogRecord[]) =>
    walletWrittenBy((walletId) => [records(walletId)]);

  it('pages through every entry once, newest first, ties on time of one category in order of writing, cursor null at the end', async () => {
    const base = clock.now() - HOUR;
    // 25 entries over every category, three a second, two after two in one category: so entries share a millisecond
    // within one category and across two, and order within a time is the tie-break's.
    const { t, token, rows } = await walletWithRows((walletId) =>
      Array.from({ length: 25 }, (_, i) =>
        record(walletId, i, base + Math.floor(i / 3) * 1000, {
          endpoint: LOG_CATEGORIES[Math.floor(i / 2) % LOG_CATEGORIES.length] as LogCategory,
        }),
      ),
    );
    const pages = await allPages(t, token, 'n=2');
    expect(pages).toHaveLength(13);
    expect(pages.slice(0, -1).every((page) => page.n === 2 && page.cursor !== null)).toBe(true);
    expect(pages.at(-1)?.n).toBe(1);
    expectNewestFirst(
      pages.flatMap((page) => page.logs.map((entry) => entry.id)),
      rows,
    );
  });

  it.each([7, 100])(
    'pages the entries of overlapping batches (two instances logging one wallet) in time order, every one once (n=%i)',
    async (n) => {
      const base = clock.now() - HOUR;
      // Each instance writes its own batches (six each, a second apiece); their times interleave, with ties (17 × 5 = 5 + 16 × 5).
      const { t, token, rows } = await walletWrittenBy((walletId) => [
        Array.from({ length: 300 }, (_, i) => record(walletId, i, base + 17 * i)),
        Array.from({ length: 300 }, (_, i) => record(walletId, 1000 + i, base + 5 + 16 * i)),
      ]);
      const pages = await allPages(t, token, `n=${n}&type=kv`);
      expectNewestFirst(
        pages.flatMap((page) => page.logs.map((entry) => entry.id)),
        rows,
      );
    },
  );

  it.each([7, 50, 99])(
    "pages a quiet instance's long batch beside a busy one's short batches in time order, every entry once (n=%i)",
    async (n) => {
      const base = clock.now() - HOUR;
      // The busy instance: 400 entries, one a millisecond, in batches of 128; the quiet one: ten over 900 ms in one
      // batch, read among the busy one's before their older batches, whose entries are newer than most of its own.
      const { t, token, rows } = await walletWrittenBy((walletId) => [
        Array.from({ length: 400 }, (_, i) => record(walletId, i, base + 600 + i)),
        Array.from({ length: 10 }, (_, i) => record(walletId, 1000 + i, base + 100 * i)),
      ]);
      const pages = await allPages(t, token, `n=${n}&type=kv`, 200);
      expectNewestFirst(
        pages.flatMap((page) => page.logs.map((entry) => entry.id)),
        rows,
      );
    },
  );

  it('pages one category with type, every entry once', async () => {
    const base = clock.now() - HOUR;
    const { t, token, rows } = await walletWithRows((walletId) =>
      Array.from({ length: 9 }, (_, i) =>
        record(walletId, i, base + i * 10, { endpoint: i % 3 === 0 ? 'myip' : 'kv' }),
      ),
    );
    const pages = await allPages(t, token, 'n=2&type=kv');
    const expected = rows.filter((row) => row.endpoint === 'kv').map((row) => row.id);
    expect(pages.flatMap((page) => page.logs.map((entry) => entry.id))).toEqual(expected.reverse());
    expect(pages).toHaveLength(3);
  });

  it('filters on a status class or an exact status, and on a path prefix', async () => {
    const t = get();
    const token = await t.createToken(100);
    const call = async (method: 'GET' | 'POST' | 'DELETE', url: string) => {
      clock.advance(10);
      await t.inject({ method, url, headers: { 'x-token': token }, ...(method === 'POST' ? { payload: 'v' } : {}) });
    };
    await call('POST', '/kv/shop/cart');
    await call('GET', '/kv/shop/missing');
    await call('GET', '/kv/shopping/list');
    await call('GET', '/token');
    await call('DELETE', '/kv/shop/gone');
    await call('GET', '/kv/other/thing');
    const paths = async (query: string) =>
      (
        (
          await t.inject({ method: 'GET', url: `/token/logs?n=100&${query}`, headers: { 'x-token': token } })
        ).json() as Page
      ).logs.map((entry) => `${entry.status_code} ${entry.path}`);
    expect(await paths('status=4xx')).toEqual([
      '404 /kv/other/thing',
      '404 /kv/shop/gone',
      '404 /kv/shopping/list',
      '404 /kv/shop/missing',
    ]);
    expect(await paths('status=404&path=/kv/shop/')).toEqual(['404 /kv/shop/gone', '404 /kv/shop/missing']);
    expect(await paths('path=/kv/shop')).toEqual([
      '404 /kv/shop/gone',
      '404 /kv/shopping/list',
      '404 /kv/shop/missing',
      '200 /kv/shop/cart',
    ]);
    expect(await paths('status=200&type=token&path=/token')).toEqual(
      // The filtered reads above are logged too, as token calls answered 200.
      [
        '200 /token/logs?n=100&path=/kv/shop',
        '200 /token/logs?n=100&status=404&path=/kv/shop/',
        '200 /token/logs?n=100&status=4xx',
        '200 /token',
      ],
    );
    expect(await paths('status=5xx')).toEqual([]);
    expect(await paths('status=201')).toEqual([]);
  });

  it('pages a filtered list with a cursor, every match once', async () => {
    const base = clock.now() - HOUR;
    const { t, token, rows } = await walletWithRows((walletId) =>
      Array.from({ length: 30 }, (_, i) =>
        record(walletId, i, base + i, {
          statusCode: i % 4 === 0 ? 404 : 200,
          path: i % 2 === 0 ? `/kv/even/${i}` : `/kv/odd/${i}`,
        }),
      ),
    );
    const pages = await allPages(t, token, 'n=3&status=4xx&path=/kv/even/');
    const expected = rows
      .filter((row) => row.statusCode === 404 && row.path.startsWith('/kv/even/'))
      .map((row) => row.id);
    expect(expected).toHaveLength(8);
    expect(pages.flatMap((page) => page.logs.map((entry) => entry.id))).toEqual(expected.reverse());
  });

  it('looks at a bounded number of entries per call: a rare match far back takes several short pages', async () => {
    const base = clock.now() - 2 * HOUR;
    const total = 2 * SCAN_ROWS + 500;
    const { t, token, rows } = await walletWithRows((walletId) =>
      Array.from({ length: total }, (_, i) =>
        record(walletId, i, base + Math.floor(i / 7), i === 3 ? { statusCode: 503, path: '/kv/rare/one' } : {}),
      ),
    );
    const pages = await allPages(t, token, 'n=5&status=503');
    // Each call looks at SCAN_ROWS entries at most: the match, the 4th oldest, is reached by the third call.
    expect(pages.length).toBe(3);
    expect(pages.slice(0, 2).map((page) => [page.n, page.cursor !== null])).toEqual([
      [0, true],
      [0, true],
    ]);
    expect(pages.flatMap((page) => page.logs.map((entry) => entry.id))).toEqual([rows[3]?.id]);
    // A page that fills up before the scan ends needs no more than n matches.
    const twoOfMany = (
      await t.inject({ method: 'GET', url: '/token/logs?n=2&path=/kv/paged/', headers: { 'x-token': token } })
    ).json() as Page;
    expect(twoOfMany.logs.map((entry) => entry.id)).toEqual([rows[total - 1]?.id, rows[total - 2]?.id]);
    expect(twoOfMany.cursor).not.toBeNull();
  });

  it.each([
    ['spread evenly over every category', (i: number) => LOG_CATEGORIES[i % LOG_CATEGORIES.length] as LogCategory],
    [
      'mostly in one category',
      (i: number): LogCategory => (i % 50 < LOG_CATEGORIES.length ? (LOG_CATEGORIES[i % 50] as LogCategory) : 'kv'),
    ],
  ])(
    'a filtered call without type looks at no more than SCAN_ROWS entries of a log %s, and at more than half as many',
    async (_case, categoryOf) => {
      const base = clock.now() - 2 * HOUR;
      const total = 2 * SCAN_ROWS + 500;
      // One entry per millisecond, so a cursor's time tells which entry it names.
      const { t, token, rows } = await walletWithRows((walletId) =>
        Array.from({ length: total }, (_, i) =>
          record(walletId, i, base + i, { endpoint: categoryOf(i), ...(i === 3 ? { statusCode: 503 } : {}) }),
        ),
      );
      const pages = await allPages(t, token, 'n=5&status=503');
      expect(pages.flatMap((page) => page.logs.map((entry) => entry.id))).toEqual([rows[3]?.id]);
      // A page holds what lies from its start down to its cursor's entry, exclusive; the next page starts there.
      let start = total - 1;
      for (const page of pages.slice(0, -1)) {
        const end = (decodeCursor(page.cursor as string)?.createdAt ?? Number.NaN) - base;
        expect(start - end).toBeLessThanOrEqual(SCAN_ROWS);
        expect(start - end).toBeGreaterThan(SCAN_ROWS / 2);
        start = end;
      }
    },
  );

  it.each([3, 100])(
    'pages a filtered list across scans that end inside a millisecond, every match once, in order (n=%i)',
    async (n) => {
      const base = clock.now() - 3 * HOUR;
      const total = 3 * SCAN_ROWS + 37;
      // Five entries a millisecond over every category, so a scan's end and the entries next to it share their time;
      // matches sparse, and dense around where the scans of a page that does not fill up end (every SCAN_ROWS entries).
      const newestFirst = (i: number) => total - 1 - i;
      const nearAScanEnd = (i: number) => [1, 2, 3].some((k) => Math.abs(newestFirst(i) - k * SCAN_ROWS) <= 8);
      const { t, token, rows } = await walletWithRows((walletId) =>
        Array.from({ length: total }, (_, i) =>
          record(walletId, i, base + Math.floor(i / 5), {
            endpoint: LOG_CATEGORIES[(i * 7) % LOG_CATEGORIES.length] as LogCategory,
            statusCode: i % 211 === 0 || nearAScanEnd(i) ? 503 : 200,
          }),
        ),
      );
      const pages = await allPages(t, token, `n=${n}&status=5xx`);
      const matches = rows.filter((row) => row.statusCode === 503);
      expectNewestFirst(
        pages.flatMap((page) => page.logs.map((entry) => entry.id)),
        matches,
      );
      expect(pages.every((page) => page.n <= n)).toBe(true);
    },
    60_000,
  );

  it("shows a cursor only its own wallet's entries", async () => {
    const base = clock.now() - MINUTE;
    const mine = await walletWithRows((walletId) => [record(walletId, 1, base), record(walletId, 2, base + 1)]);
    const theirs = await walletWithRows((walletId) => [record(walletId, 1, base), record(walletId, 2, base + 1)]);
    const first = (
      await mine.t.inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': mine.token } })
    ).json() as Page;
    const res = await theirs.t.inject({
      method: 'GET',
      url: `/token/logs?n=5&cursor=${first.cursor ?? ''}`,
      headers: { 'x-token': theirs.token },
    });
    expect((res.json() as Page).logs.map((entry) => entry.id)).toEqual([theirs.rows[0]?.id]);
  });

  it.each([
    ['status=6xx', 'Invalid status: must be 2xx, 3xx, 4xx, 5xx or a status code from 100 to 599'],
    ['status=20', 'Invalid status: must be 2xx, 3xx, 4xx, 5xx or a status code from 100 to 599'],
    ['status=2XX', 'Invalid status: must be 2xx, 3xx, 4xx, 5xx or a status code from 100 to 599'],
    ['status=', 'Invalid status: must be 2xx, 3xx, 4xx, 5xx or a status code from 100 to 599'],
    ['path=', 'Invalid path: must be 1 to 200 characters'],
    [`path=/${'p'.repeat(200)}`, 'Invalid path: must be 1 to 200 characters'],
    ['cursor=bogus', 'Invalid cursor: must be the cursor of a previous answer'],
    ['cursor=', 'Invalid cursor: must be the cursor of a previous answer'],
    [`cursor=${Buffer.from('1.2.3').toString('base64url')}`, 'Invalid cursor: must be the cursor of a previous answer'],
    [`cursor=${'A'.repeat(65)}`, 'Invalid cursor: must be the cursor of a previous answer'],
  ])('answers 400 to %s, free', async (query, body) => {
    const t = get();
    const token = await t.createToken(10);
    const res = await t.inject({ method: 'GET', url: `/token/logs?${query}`, headers: { 'x-token': token } });
    expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
      400,
      body,
      PLAIN,
      '0',
    ]);
  });

  it('accepts a path of 200 characters', async () => {
    const t = get();
    const token = await t.createToken(10);
    const res = await t.inject({
      method: 'GET',
      url: `/token/logs?path=/${'p'.repeat(199)}`,
      headers: { 'x-token': token },
    });
    expect([res.statusCode, res.json()]).toEqual([200, { logs: [], n: 0, cursor: null }]);
  });
});
