import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PLAIN = 'text/plain; charset=utf-8';

interface BucketList {
  buckets: Array<{ bucket: string; keys: number; size: number; capped: boolean }>;
  cursor: string | null;
}

function kv(t: TestApp, token: string) {
  const headers = { 'x-token': token };
  return {
    set: async (bucket: string, key: string, value = 'v', ttl?: number) => {
      const query = ttl === undefined ? '' : `?ttl=${ttl}`;
      const res = await t.inject({
        method: 'POST',
        url: `/kv/${encodeURIComponent(bucket)}/${encodeURIComponent(key)}${query}`,
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
        payload: Buffer.from(value, 'utf8'),
      });
      expect(res.statusCode).toBe(200);
    },
    buckets: (query = '') => t.inject({ method: 'GET', url: `/kv${query}`, headers }),
  };
}

describeEachStore("key-value store: listing a wallet's buckets (GET /kv, beyond the contract)", (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  /** A wallet of its own per test, so that each test knows every bucket it holds. */
  async function wallet(credits = 10_000) {
    const token = await get().createToken(credits);
    return { token, ...kv(get(), token) };
  }
  const namesOf = (res: { json: () => unknown }): string[] =>
    (res.json() as BucketList).buckets.map((entry) => entry.bucket);

  it('lists the buckets in byte order with their live keys and value bytes (UTF-8), for 1 credit, logged as kv', async () => {
    const mine = await wallet();
    for (const [bucket, key, value] of [
      ['settings', 'theme', 'dark'],
      ['settings', 'lang', 'é😀'], // 2 + 4 bytes
      ['Zeta', 'k', ''],
      ['émoji', 'a', 'abc'],
      ['émoji', 'b', 'de'],
    ] as const)
      await mine.set(bucket, key, value);
    const before = await balanceOf(get(), mine.token);
    const res = await mine.buckets();
    expect(res.statusCode).toBe(200);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', String((before ?? 0) - 1)]);
    expect(await balanceOf(get(), mine.token)).toBe((before ?? 0) - 1);
    expect(res.json()).toEqual({
      buckets: [
        { bucket: 'Zeta', keys: 1, size: 0, capped: false },
        { bucket: 'settings', keys: 2, size: 10, capped: false },
        { bucket: 'émoji', keys: 2, size: 5, capped: false },
      ],
      cursor: null,
    });
    const logs = await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': mine.token } });
    expect(logs.json<{ logs: Array<Record<string, unknown>> }>().logs[0]).toMatchObject({
      method: 'GET',
      path: '/kv',
      endpoint: 'kv',
      cost: 1,
    });
  });

  it('pages with limit 2 and cursor until the cursor is null, each bucket once', async () => {
    const mine = await wallet();
    const buckets = ['b0', 'b1', 'b2', 'b3', 'b4', 'c0'];
    for (const bucket of [...buckets].reverse()) await mine.set(bucket, 'k');
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    do {
      const res = await mine.buckets(`?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as BucketList;
      seen.push(...body.buckets.map((entry) => entry.bucket));
      cursor = body.cursor;
      cursors.push(cursor);
    } while (cursor !== null && cursors.length < 10);
    expect(seen).toEqual(buckets);
    expect(cursors).toEqual(['b1', 'b3', null]);
  });

  it('defaults to 20 buckets a page', async () => {
    const mine = await wallet();
    for (let i = 0; i < 21; i++) await mine.set(`b${String(i).padStart(2, '0')}`, 'k');
    const first = (await mine.buckets()).json() as BucketList;
    expect([first.buckets.length, first.cursor]).toEqual([20, 'b19']);
    expect(namesOf(await mine.buckets('?cursor=b19'))).toEqual(['b20']);
  });

  it('filters by prefix, paging within it', async () => {
    const mine = await wallet();
    for (const bucket of ['aa', 'ab', 'ab-1', 'ab😀', 'abz', 'ac', 'b']) await mine.set(bucket, 'k');
    expect(namesOf(await mine.buckets('?prefix=ab'))).toEqual(['ab', 'ab-1', 'abz', 'ab😀']);
    const first = (await mine.buckets('?prefix=ab&limit=2')).json() as BucketList;
    expect([first.buckets.map((entry) => entry.bucket), first.cursor]).toEqual([['ab', 'ab-1'], 'ab-1']);
    expect((await mine.buckets('?prefix=ab&limit=2&cursor=ab-1')).json()).toMatchObject({
      buckets: [{ bucket: 'abz' }, { bucket: 'ab😀' }],
      cursor: null,
    });
    expect((await mine.buckets('?prefix=zz')).json()).toEqual({ buckets: [], cursor: null });
  });

  it('counts only live keys and leaves out a bucket whose keys all expired', async () => {
    const mine = await wallet();
    await mine.set('mixed', 'long', 'abcd', 3600);
    await mine.set('mixed', 'short', 'xy', 1);
    await mine.set('gone', 'short', 'xy', 1);
    expect((await mine.buckets()).json()).toEqual({
      buckets: [
        { bucket: 'gone', keys: 1, size: 2, capped: false },
        { bucket: 'mixed', keys: 2, size: 6, capped: false },
      ],
      cursor: null,
    });
    clock.advance(1000);
    expect((await mine.buckets()).json()).toEqual({
      buckets: [{ bucket: 'mixed', keys: 1, size: 4, capped: false }],
      cursor: null,
    });
  });

  it("never lists another wallet's buckets or counts its keys", async () => {
    const mine = await wallet();
    const theirs = await wallet();
    await mine.set('shared-name', 'mine');
    await theirs.set('shared-name', 'a', 'theirs');
    await theirs.set('shared-name', 'b', 'theirs');
    await theirs.set('their-own', 'k');
    expect((await mine.buckets()).json()).toEqual({
      buckets: [{ bucket: 'shared-name', keys: 1, size: 1, capped: false }],
      cursor: null,
    });
    expect(namesOf(await theirs.buckets())).toEqual(['shared-name', 'their-own']);
  });

  it('counts at most the first 1000 entries of a bucket, saying so with capped', async () => {
    const mine = await wallet();
    const keys = Array.from({ length: 1001 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((key) => mine.set('big', key, 'ab', key === 'k0000' ? 1 : 3600)));
    await mine.set('small', 'k', 'x');
    // A page of up to 10 buckets counts 1000 entries of each (larger pages fewer: the next test).
    const all = (await mine.buckets('?limit=10')).json() as BucketList;
    expect(all.buckets).toEqual([
      { bucket: 'big', keys: 1000, size: 2000, capped: true },
      { bucket: 'small', keys: 1, size: 1, capped: false },
    ]);
    // The first entry expires: 999 live among the first 1000 entries, more beyond.
    clock.advance(1000);
    expect((await mine.buckets('?limit=1')).json()).toEqual({
      buckets: [{ bucket: 'big', keys: 999, size: 1998, capped: true }],
      cursor: 'big',
    });
    // Exactly 1000 entries: counted in full.
    expect(
      (await get().inject({ method: 'DELETE', url: '/kv/big/k1000', headers: { 'x-token': mine.token } })).statusCode,
    ).toBe(200);
    expect((await mine.buckets('?limit=1')).json()).toEqual({
      buckets: [{ bucket: 'big', keys: 999, size: 1998, capped: false }],
      cursor: 'big',
    });
  });

  it('counts at most 10,000 entries a page: a page of more than 10 buckets counts fewer of each, saying so with capped', async () => {
    const mine = await wallet();
    const keys = Array.from({ length: 501 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((key) => mine.set('big', key, 'ab')));
    await mine.set('small', 'k', 'x');
    const big = async (query: string) => ((await mine.buckets(query)).json() as BucketList).buckets[0];
    // Up to 10 buckets a page: 1000 of each, so all 501.
    expect(await big('?limit=10')).toEqual({ bucket: 'big', keys: 501, size: 1002, capped: false });
    // 20 (the default): 10,000 ÷ 20 = 500 of each.
    expect(await big('')).toEqual({ bucket: 'big', keys: 500, size: 1000, capped: true });
    expect(await big('?limit=100')).toEqual({ bucket: 'big', keys: 100, size: 200, capped: true });
    expect((await mine.buckets('?limit=100')).json()).toMatchObject({
      buckets: [{}, { bucket: 'small', keys: 1, size: 1, capped: false }],
      cursor: null,
    });
  });

  it.each([
    ['limit = 0', '?limit=0', 'Invalid limit: must be an integer from 1 to 100'],
    ['limit above 100', '?limit=101', 'Invalid limit: must be an integer from 1 to 100'],
    ['limit not an integer', '?limit=2.5', 'Invalid limit: must be an integer from 1 to 100'],
    ['a prefix too long', `?prefix=${'p'.repeat(31)}`, 'Invalid prefix: must be at most 30 characters'],
    ['a control character in the prefix', '?prefix=a%01', 'Invalid prefix: must not contain control characters or /'],
    ['an empty cursor', '?cursor=', 'Invalid cursor: must be 1 to 30 characters'],
    ['a / in the cursor', '?cursor=a%2Fb', 'Invalid cursor: must not contain control characters or /'],
    ['an unknown parameter', '?bucket=x', 'Unknown query parameter: bucket'],
  ])('refuses %s with 400 in plain text, charging 1 as other kv refusals', async (_case, query, message) => {
    const mine = await wallet(5);
    const res = await mine.buckets(query);
    expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
      400,
      message,
      PLAIN,
      '1',
    ]);
  });

  it('answers 401 without a token, 402 to a wallet that cannot pay, and 405 (allow: GET, HEAD) to other methods', async () => {
    expect((await get().inject({ method: 'GET', url: '/kv' })).statusCode).toBe(401);
    const broke = await wallet(0);
    expect(await broke.buckets().then((res) => [res.statusCode, res.body])).toEqual([402, 'Insufficient credits']);
    const mine = await wallet(5);
    const res = await get().inject({
      method: 'POST',
      url: '/kv',
      headers: { 'x-token': mine.token, 'content-type': 'text/plain' },
      payload: 'v',
    });
    expect([res.statusCode, res.body, res.headers.allow, res.headers['x-cost']]).toEqual([
      405,
      'Method Not Allowed',
      'GET, HEAD',
      '0',
    ]);
  });
});
