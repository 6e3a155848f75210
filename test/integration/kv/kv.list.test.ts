import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PLAIN = 'text/plain; charset=utf-8';

interface KeyList {
  keys: Array<{ key: string; expiresAt: string; size: number }>;
  cursor: string | null;
}

function kv(t: TestApp, token: string) {
  return {
    set: async (bucket: string, key: string, ttl?: number, value = 'v') => {
      const query = ttl === undefined ? '' : `?ttl=${ttl}`;
      const res = await t.inject({
        method: 'POST',
        url: `/kv/${bucket}/${encodeURIComponent(key)}${query}`,
        headers: { 'x-token': token, 'content-type': 'text/plain; charset=utf-8' },
        payload: Buffer.from(value, 'utf8'),
      });
      expect(res.statusCode).toBe(200);
    },
    list: (bucket: string, query = '') =>
      t.inject({ method: 'GET', url: `/kv/${bucket}${query}`, headers: { 'x-token': token } }),
  };
}

describeEachStore('key-value store: listing a bucket (GET /kv/{bucket}, beyond the contract)', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });
  let token: string;
  let store: ReturnType<typeof kv>;
  beforeAll(async () => {
    token = await get().createToken(10_000);
    store = kv(get(), token);
  });

  const keysOf = (body: string): string[] => (JSON.parse(body) as KeyList).keys.map((entry) => entry.key);

  it('lists live keys in byte order with their expiry and size in UTF-8 bytes, for 1 credit, logged as kv', async () => {
    // Byte (code point) order: not case-folded as a locale would, astral characters after U+FFFD unlike UTF-16.
    for (const key of ['😀', 'a', '\ufffd', 'é', 'B']) await store.set('order', key, 60);
    await store.set('order', 'a', 60, 'é😀x'); // 2 + 4 + 1 bytes, 3 characters
    await store.set('order', 'B', 60, '');
    const before = await balanceOf(get(), token);
    const res = await store.list('order');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', String((before ?? 0) - 1)]);
    expect(await balanceOf(get(), token)).toBe((before ?? 0) - 1);
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    expect(res.json()).toEqual({
      keys: [
        { key: 'B', expiresAt, size: 0 },
        { key: 'a', expiresAt, size: 7 },
        { key: 'é', expiresAt, size: 1 },
        { key: '\ufffd', expiresAt, size: 1 },
        { key: '😀', expiresAt, size: 1 },
      ],
      cursor: null,
    });
    const logs = await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } });
    expect(logs.json<{ logs: Array<Record<string, unknown>> }>().logs[0]).toMatchObject({
      method: 'GET',
      path: '/kv/order',
      endpoint: 'kv',
      cost: 1,
    });
  });

  it('pages with limit 2 and cursor until the cursor is null, each live key once in byte order', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `k${i}`);
    for (const key of [...keys].reverse()) await store.set('paged', key);
    await store.set('paged', 'k35', 1); // expired before the listing: never listed
    clock.advance(1000);
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    do {
      const res = await store.list(
        'paged',
        `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json() as KeyList;
      expect(body.keys.length).toBeLessThanOrEqual(2);
      seen.push(...body.keys.map((entry) => entry.key));
      cursor = body.cursor;
      cursors.push(cursor);
    } while (cursor !== null && cursors.length < 10);
    expect(seen).toEqual(keys);
    expect(cursors).toEqual(['k1', 'k3', 'k5', null]);
    // A page exactly full with nothing after it says so: no empty extra page.
    expect((await store.list('paged', '?limit=7')).json()).toMatchObject({ cursor: null });
  });

  it('defaults to 20 keys a page and allows at most 100', async () => {
    for (let i = 0; i < 101; i++) await store.set('hundred', `k${String(i).padStart(3, '0')}`);
    const first = (await store.list('hundred')).json() as KeyList;
    expect([first.keys.length, first.cursor]).toEqual([20, 'k019']);
    const most = (await store.list('hundred', '?limit=100')).json() as KeyList;
    expect([most.keys.length, most.cursor]).toEqual([100, 'k099']);
    expect((await store.list('hundred', '?limit=100&cursor=k099')).json()).toEqual({
      keys: [{ key: 'k100', expiresAt: expect.any(String) as unknown, size: 1 }],
      cursor: null,
    });
  });

  it('lists only the keys starting with prefix, paging within it', async () => {
    for (const key of ['aa', 'ab', 'ab-1', 'ab😀', 'abz', 'ac', 'b']) await store.set('prefixed', key);
    expect(keysOf((await store.list('prefixed', '?prefix=ab')).body)).toEqual(['ab', 'ab-1', 'abz', 'ab😀']);
    const first = (await store.list('prefixed', '?prefix=ab&limit=2')).json() as KeyList;
    expect([first.keys.map((entry) => entry.key), first.cursor]).toEqual([['ab', 'ab-1'], 'ab-1']);
    expect((await store.list('prefixed', '?prefix=ab&limit=2&cursor=ab-1')).json()).toMatchObject({
      keys: [{ key: 'abz' }, { key: 'ab😀' }],
      cursor: null,
    });
    expect(keysOf((await store.list('prefixed', '?prefix=zz')).body)).toEqual([]);
    expect(keysOf((await store.list('prefixed', '?prefix=')).body)).toHaveLength(7);
  });

  it('leaves out expired keys (to the millisecond, as GET does) and answers an unknown bucket with an empty list', async () => {
    await store.set('expiring', 'short', 1);
    await store.set('expiring', 'long', 3600);
    clock.advance(999);
    expect(keysOf((await store.list('expiring')).body)).toEqual(['long', 'short']);
    clock.advance(1);
    expect(keysOf((await store.list('expiring')).body)).toEqual(['long']);
    expect(
      (await get().inject({ method: 'GET', url: '/kv/expiring/short', headers: { 'x-token': token } })).statusCode,
    ).toBe(404);
    expect((await store.list('never-used')).json()).toEqual({ keys: [], cursor: null });
  });

  it("never lists another wallet's keys in a bucket of the same name", async () => {
    await store.set('shared-name', 'mine');
    const other = kv(get(), await get().createToken(10));
    await other.set('shared-name', 'theirs');
    expect(keysOf((await store.list('shared-name')).body)).toEqual(['mine']);
    expect(keysOf((await other.list('shared-name')).body)).toEqual(['theirs']);
  });

  it.each([
    ['a reserved bucket', 'reserved-x', '', 'Invalid bucket: must not start with reserved-'],
    ['a bucket ending in ---', 'x---', '', 'Invalid bucket: must not end with ---'],
    ['a bucket too long', 'b'.repeat(31), '', 'Invalid bucket: must be 1 to 30 characters'],
    ['a control character in the bucket', 'b%01', '', 'Invalid bucket: must not contain control characters or /'],
    ['limit = 0', 'b', '?limit=0', 'Invalid limit: must be an integer from 1 to 100'],
    ['limit above 100', 'b', '?limit=101', 'Invalid limit: must be an integer from 1 to 100'],
    ['limit not an integer', 'b', '?limit=1.5', 'Invalid limit: must be an integer from 1 to 100'],
    ['limit not a number', 'b', '?limit=ten', 'Invalid limit: must be an integer from 1 to 100'],
    ['a prefix too long', 'b', `?prefix=${'p'.repeat(31)}`, 'Invalid prefix: must be at most 30 characters'],
    ['a / in the prefix', 'b', '?prefix=a%2Fb', 'Invalid prefix: must not contain control characters or /'],
    ['an empty cursor', 'b', '?cursor=', 'Invalid cursor: must be 1 to 30 characters'],
    [
      'a control character in the cursor',
      'b',
      '?cursor=a%0A',
      'Invalid cursor: must not contain control characters or /',
    ],
    ["the old listing's n", 'b', '?n=5', 'Unknown query parameter: n'],
    ["the old listing's after", 'b', '?after=k', 'Unknown query parameter: after'],
  ])('refuses %s with 400 in plain text', async (_case, bucket, query, message) => {
    const res = await store.list(bucket, query);
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, message, PLAIN]);
  });

  it('refuses a wallet that cannot pay with 402, listing nothing', async () => {
    const broke = await get().createToken(0);
    const res = await kv(get(), broke).list('b');
    expect([res.statusCode, res.body]).toEqual([402, 'Insufficient credits']);
    expect(res.headers['x-balance']).toBe('0');
  });

  it('answers 401 without a token, HEAD like GET, and 405 (allow: GET, HEAD) to other methods on the bucket', async () => {
    expect((await get().inject({ method: 'GET', url: '/kv/b' })).statusCode).toBe(401);
    const head = await get().inject({ method: 'HEAD', url: '/kv/b', headers: { 'x-token': token } });
    expect([head.statusCode, head.headers['x-cost']]).toEqual([200, '1']);
    for (const method of ['POST', 'DELETE', 'PUT'] as const) {
      const res = await get().inject({
        method,
        url: '/kv/b',
        headers: { 'x-token': token, 'content-type': 'text/plain' },
        payload: 'v',
      });
      expect([res.statusCode, res.body, res.headers.allow, res.headers['x-cost']]).toEqual([
        405,
        'Method Not Allowed',
        'GET, HEAD',
        '0',
      ]);
    }
  });
});
