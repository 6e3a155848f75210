import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PLAIN = 'text/plain; charset=utf-8';
const DAY = 24 * 3600 * 1000;

function kv(t: TestApp, token: string) {
  const headers = (extra: Record<string, string> = {}) => ({ 'x-token': token, ...extra });
  return {
    set: (path: string, value?: string | Buffer, contentType = 'text/plain') =>
      t.inject({
        method: 'POST',
        url: `/kv/${path}`,
        headers: headers({ 'content-type': contentType }),
        ...(value === undefined ? {} : { payload: value }),
      }),
    get: (path: string) => t.inject({ method: 'GET', url: `/kv/${path}`, headers: headers() }),
    del: (path: string) => t.inject({ method: 'DELETE', url: `/kv/${path}`, headers: headers() }),
  };
}

async function expectValue(res: Awaited<ReturnType<ReturnType<typeof kv>['get']>>, value: string) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(PLAIN);
  expect(res.body).toBe(value);
}

function expectOk(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([200, 'OK', PLAIN]);
}

function expectMissing(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([404, 'Key Not Found', PLAIN]);
}

describeEachStore('key-value store: set, get, delete', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });
  let store: ReturnType<typeof kv>;
  beforeAll(async () => {
    store = kv(get(), await get().createToken(10_000));
  });

  it('sets a value (200 OK, 1 credit) and reads it back as plain text', async () => {
    const set = await store.set('notes/today', 'hello world');
    expectOk(set);
    expect(set.headers['x-cost']).toBe('1');
    await expectValue(await store.get('notes/today'), 'hello world');
  });

  it('overwrites an existing value', async () => {
    expectOk(await store.set('notes/over', 'first'));
    expectOk(await store.set('notes/over', 'second'));
    await expectValue(await store.get('notes/over'), 'second');
  });

  it('deletes a value, after which it answers 404 Key Not Found', async () => {
    expectOk(await store.set('notes/gone', 'bye'));
    const del = await store.del('notes/gone');
    expectOk(del);
    expect(del.headers['x-cost']).toBe('1');
    expectMissing(await store.get('notes/gone'));
  });

  it('stores an empty value, with or without a body', async () => {
    expectOk(await store.set('empty/a', ''));
    await expectValue(await store.get('empty/a'), '');
    expectOk(await store.set('empty/b'));
    await expectValue(await store.get('empty/b'), '');
  });

  it('stores 1000 characters, counting a multi-byte emoji as one character', async () => {
    const value = '😀'.repeat(500) + 'é'.repeat(250) + 'a'.repeat(250);
    expect(Array.from(value)).toHaveLength(1000);
    expectOk(await store.set('long/emoji', value));
    await expectValue(await store.get('long/emoji'), value);
  });

  it.each([
    ['application/json', '{"a": [1, 2]}'],
    ['application/x-www-form-urlencoded', 'a=1&b=2'],
    ['application/octet-stream', 'raw bytes'],
    ['text/html; charset=utf-8', '<p>hi</p>'],
    ['application/xml', '<a/>'],
  ])('stores a %s body verbatim as text', async (contentType, value) => {
    const key = `types/${contentType.replace(/[^a-z]+/g, '-').slice(0, 30)}`;
    expectOk(await store.set(key, value, contentType));
    await expectValue(await store.get(key), value);
  });

  it('accepts bucket and key names with : . @ and spaces, and 30-character names', async () => {
    for (const path of ['user:42/a.b', 'x@y/k', 'with%20space/k%20k', `${'b'.repeat(30)}/${'k'.repeat(30)}`]) {
      expectOk(await store.set(path, path));
      await expectValue(await store.get(path), path);
    }
  });

  it('accepts unicode names of 30 code points and keeps them distinct', async () => {
    const bucket = encodeURIComponent('ü'.repeat(30));
    const key = encodeURIComponent('🔑'.repeat(30));
    expectOk(await store.set(`${bucket}/${key}`, 'unicode'));
    await expectValue(await store.get(`${bucket}/${key}`), 'unicode');
    expectMissing(await store.get(`${bucket}/${encodeURIComponent('🔑'.repeat(29))}`));
  });

  it('allows reserved- and --- in keys and case variants in buckets (only the bucket rule is case-sensitive)', async () => {
    for (const path of ['b/reserved-k', 'b/k---', 'Reserved-b/k', 'b---x/k', 'b--/k'])
      expectOk(await store.set(path, 'ok'));
  });

  it('keeps the same key in different buckets apart', async () => {
    expectOk(await store.set('one/same', '1'));
    expectOk(await store.set('two/same', '2'));
    await expectValue(await store.get('one/same'), '1');
    await expectValue(await store.get('two/same'), '2');
  });
});

describeEachStore('key-value store: time to live', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });
  let store: ReturnType<typeof kv>;
  beforeAll(async () => {
    store = kv(get(), await get().createToken(1000));
  });

  it('expires a ttl=5 value exactly 5 seconds after it was set', async () => {
    expectOk(await store.set('ttl/five?ttl=5', 'v'));
    clock.advance(4_999);
    await expectValue(await store.get('ttl/five'), 'v');
    clock.advance(1);
    expectMissing(await store.get('ttl/five'));
  });

  it.each([
    ['no ttl', 'ttl/default'],
    ['ttl=0', 'ttl/zero?ttl=0'],
    ['ttl=2592000', 'ttl/max?ttl=2592000'],
  ])('keeps a value set with %s for 30 days', async (_name, path) => {
    expectOk(await store.set(path, 'month'));
    const bare = path.split('?')[0] as string;
    clock.advance(30 * DAY - 1000);
    await expectValue(await store.get(bare), 'month');
    clock.advance(1000);
    expectMissing(await store.get(bare));
  });

  it('restarts the ttl on overwrite', async () => {
    expectOk(await store.set('ttl/renew?ttl=10', 'a'));
    clock.advance(8_000);
    expectOk(await store.set('ttl/renew?ttl=10', 'b'));
    clock.advance(8_000);
    await expectValue(await store.get('ttl/renew'), 'b');
    clock.advance(2_000);
    expectMissing(await store.get('ttl/renew'));
  });

  it('answers 404 Key Not Found when deleting an expired value, and charges for it', async () => {
    expectOk(await store.set('ttl/del?ttl=1', 'v'));
    clock.advance(1_000);
    const del = await store.del('ttl/del');
    expectMissing(del);
    expect(del.headers['x-cost']).toBe('1');
  });

  it('lets an expired key be set again', async () => {
    expectOk(await store.set('ttl/again?ttl=1', 'old'));
    clock.advance(2_000);
    expectOk(await store.set('ttl/again?ttl=1', 'new'));
    await expectValue(await store.get('ttl/again'), 'new');
  });
});

describeEachStore('key-value store: wallets are isolated', (kind) => {
  const get = useTestApp(kind);

  it('keeps the same bucket and key under two tokens apart', async () => {
    const alice = kv(get(), await get().createToken(10));
    const bob = kv(get(), await get().createToken(10));
    expectOk(await alice.set('shared/key', 'alice'));
    expectMissing(await bob.get('shared/key'));
    expectMissing(await bob.del('shared/key'));
    expectOk(await bob.set('shared/key', 'bob'));
    await expectValue(await alice.get('shared/key'), 'alice');
    await expectValue(await bob.get('shared/key'), 'bob');
    expectOk(await bob.del('shared/key'));
    await expectValue(await alice.get('shared/key'), 'alice');
  });
});
