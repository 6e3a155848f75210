import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { ADMIN_TOKEN, expectPlain, operator } from './operator.js';

const T0 = Date.parse('2026-02-10T10:00:00.000Z');
const SORTS = { lastUsed: 'last_used_at', balance: 'balance', created: 'created_at' } as const;
type Sort = keyof typeof SORTS;

interface Stored {
  id: number;
  hash: string;
  balance: number;
  created_at: number;
  last_used_at: number;
}

/** Every page of a listing, followed by its cursors; the pages' sizes too. */
async function allPages(t: TestApp, sort: Sort, limit: number) {
  const hashes: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query: string = `?sort=${sort}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await operator(t).list(query);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { wallets: Array<{ hash: string }>; cursor: string | null };
    hashes.push(...body.wallets.map((w) => w.hash));
    sizes.push(body.wallets.length);
    cursor = body.cursor;
    if (cursor === null) return { hashes, sizes };
  }
  throw new Error('the listing never ended');
}

describeEachStore('operator API: listing wallets', (kind) => {
  const clock = new ManualClock(T0);
  // Its own database: the listing holds exactly the wallets made here.
  const get = useTestApp(kind, { clock, env: { ADMIN_TOKEN } });
  let stored: Stored[] = [];

  it('makes 25 wallets with ties on every sort key', async () => {
    const t = get();
    // Balances, creation and last use repeat (7, 7, 7, …; the same minute for several), so ties must be broken by id.
    for (let i = 0; i < 25; i++) {
      await t.deps.store.writeOne(
        'INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $4)',
        [
          sha256Hex(`wallet-${i}`),
          [7, 3, 7, 0, 12][i % 5],
          T0 + Math.floor(i / 3) * 60_000,
          T0 + ((i * 7) % 4) * 3_600_000,
        ],
      );
    }
    stored = await t.deps.store.read.all<Stored>('SELECT id, hash, balance, created_at, last_used_at FROM wallets');
    expect(stored).toHaveLength(25);
  });

  it.each(['lastUsed', 'balance', 'created'] as const)(
    'pages by %s, highest first and ties by newest wallet, each wallet once, whatever the page size',
    async (sort) => {
      const column = SORTS[sort];
      const expected = [...stored].sort((a, b) => b[column] - a[column] || b.id - a.id).map((w) => w.hash);
      for (const limit of [1, 2, 3, 7, 25, 100]) {
        const { hashes, sizes } = await allPages(get(), sort, limit);
        expect(hashes, `limit ${limit}`).toEqual(expected);
        // Full pages but the last; no empty page at the end.
        expect(sizes.slice(0, -1).every((size) => size === limit)).toBe(true);
        expect(sizes.at(-1)).toBe(25 - limit * (sizes.length - 1));
      }
    },
  );

  it('answers 20 wallets by default, sorted by last use, each as {hash, wallet, created, lastUsed}', async () => {
    const res = await operator(get()).list();
    const body = res.json() as { wallets: unknown[]; cursor: string | null };
    expect(body.wallets).toHaveLength(20);
    expect(typeof body.cursor).toBe('string');
    const newest = [...stored].sort((a, b) => b.last_used_at - a.last_used_at || b.id - a.id)[0] as Stored;
    expect(body.wallets[0]).toStrictEqual({
      hash: newest.hash,
      wallet: newest.balance,
      created: new Date(newest.created_at).toISOString(),
      lastUsed: new Date(newest.last_used_at).toISOString(),
    });
  });

  it('is not logged in any wallet', async () => {
    await operator(get()).list('?limit=100');
    await get().deps.ledger.flush();
    const row = await get().deps.store.read.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM logs WHERE endpoint = 'manage'",
    );
    expect(Number(row?.n)).toBe(0);
  });

  it.each([
    ['?limit=0', 'Invalid limit: must be an integer from 1 to 100'],
    ['?limit=101', 'Invalid limit: must be an integer from 1 to 100'],
    ['?limit=ten', 'Invalid limit: must be an integer from 1 to 100'],
    ['?sort=name', 'Invalid sort: must be one of lastUsed, balance, created'],
    ['?cursor=nonsense', 'Invalid cursor: must be the cursor of a previous page'],
    [
      `?cursor=${Buffer.from('[1,2,3]').toString('base64url')}`,
      'Invalid cursor: must be the cursor of a previous page',
    ],
    [
      `?cursor=${Buffer.from('["a",2]').toString('base64url')}`,
      'Invalid cursor: must be the cursor of a previous page',
    ],
    ['?page=2', 'Unknown query parameter: page'],
  ])('answers 400 to %s', async (query, message) => {
    expectPlain(await operator(get()).list(query), 400, message);
  });
});

describeEachStore("operator API: a wallet's log", (kind) => {
  const clock = new ManualClock(T0);
  const get = useTestApp(kind, { clock, env: { ADMIN_TOKEN } });

  it('pages through every entry once, newest first, as GET /token/logs shows them, with a null cursor at the end', async () => {
    const t = get();
    const token = await t.createToken(100);
    const hash = sha256Hex(token);
    // Nine entries; several in the same millisecond, so paging must break ties on time.
    for (let i = 0; i < 3; i++) {
      await t.inject({
        method: 'POST',
        url: `/kv/b/k${i}`,
        payload: 'v',
        headers: { 'x-token': token, 'content-type': 'text/plain' },
      });
      await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
      await operator(t).credit(hash, { amount: 1, reason: `r${i}` });
      clock.advance(i === 1 ? 0 : 1000);
    }
    const own = (await t.inject({ method: 'GET', url: '/token/logs?n=100', headers: { 'x-token': token } })).json()
      .logs as Array<{ id: string; path: string }>;
    expect(own).toHaveLength(9);
    // Reading a log adds an entry (this one's audit, the owner's free call): newer than what was read.
    const isListingAudit = (entry: { path: string }) =>
      entry.path.startsWith(`/manage/wallets/${hash}/logs`) || entry.path.startsWith('/token/logs');
    for (const limit of [1, 2, 4, 9, 20]) {
      const seen: Array<{ id: string; path: string }> = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50 && (page === 0 || cursor !== null); page++) {
        const query: string = `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const body = (await operator(t).logs(hash, query)).json() as {
          logs: Array<{ id: string; path: string }>;
          cursor: string | null;
        };
        expect(body.logs.length).toBeLessThanOrEqual(limit);
        seen.push(...body.logs);
        cursor = body.cursor;
      }
      expect(cursor, `limit ${limit}`).toBeNull();
      // Each call adds its own audit entry, at the newest end: the earlier passes' show up here, the rest is the log as its owner sees it.
      expect(
        seen.filter((entry) => !isListingAudit(entry)),
        `limit ${limit}`,
      ).toEqual(own);
      expect(new Set(seen.map((entry) => entry.id)).size).toBe(seen.length);
    }
  });

  it('filters by type and audits each call in the wallet, without a reason', async () => {
    const t = get();
    const token = await t.createToken(100);
    const hash = sha256Hex(token);
    await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    await operator(t).credit(hash, { amount: 2, reason: 'bonus' });
    const body = (await operator(t).logs(hash, '?type=manage&limit=5')).json();
    expect(body.logs.map((e: { method: string; reason?: string }) => [e.method, e.reason])).toEqual([
      ['POST', 'bonus'],
    ]);
    expect(body.cursor).toBeNull();
    const again = (await operator(t).logs(hash, '?type=manage')).json().logs;
    expect(again.map((e: { method: string; path: string; reason?: string }) => [e.method, e.path, e.reason])).toEqual([
      ['GET', `/manage/wallets/${hash}/logs?type=manage&limit=5`, undefined],
      ['POST', `/manage/wallets/${hash}/credit`, 'bonus'],
    ]);
  });

  it.each([
    ['?limit=0', 'Invalid limit: must be an integer from 1 to 100'],
    [
      '?type=billing',
      'Invalid type: must be one of kv, token, settings, webhook, webhook-delivery, url-to-metadata, myip, service, manage',
    ],
    ['?cursor=%%%', 'Invalid cursor: must be the cursor of a previous page'],
    ['?n=5', 'Unknown query parameter: n'],
  ])('answers 400 to %s', async (query, message) => {
    const token = await get().createToken(100);
    expectPlain(await operator(get()).logs(sha256Hex(token), query), 400, message);
  });
});
