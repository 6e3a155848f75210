import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { openStore } from '../../../src/store/open-store.js';
import type { Store } from '../../../src/store/store.js';
import { getValue, KvReads, KvSets, kvValueCacheFor } from '../../../src/features/kv/kv.queries.js';
import type { KvSet } from '../../../src/features/kv/kv.queries.js';

const FAR = Date.now() + 3_600_000;
const entry = (key: string, value: string, walletId = 1): KvSet => ({
  walletId,
  bucket: 'b',
  key,
  value,
  expiresAt: FAR,
});

describeEachStore('KV sets and reads as the store sees them', (kind) => {
  let database: ScratchDatabase;
  let store: Store;
  let sets: KvSets;
  let reads: KvReads;
  /** As the service has them: sharing the read cache where the store allows one (SQLite). */
  let cachedSets: KvSets;
  let cachedReads: KvReads;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
    store = openStore(database.url);
    await store.migrate();
    sets = new KvSets(store);
    reads = new KvReads(store);
    const cache = kvValueCacheFor(store);
    cachedSets = new KvSets(store, cache);
    cachedReads = new KvReads(store, cache);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });
  const read = (key: string) => getValue(store.read, { walletId: 1, bucket: 'b', key }, Date.now());

  it('keeps every code point of a value, U+0000 and other control characters included', async () => {
    const value = 'a\u0000b\u0001\t\r\nc\u007f😀';
    await sets.set(entry('controls', value));
    expect(await read('controls')).toBe(value);
  });

  // The order of concurrent sets of one key that pay in their statement (the service's path on PostgreSQL) is
  // kv.paid-sets.test.ts's; these go one statement each, so only acknowledged sets are ordered.
  it('writes concurrent sets of many keys, and of one key the set acknowledged last wins', async () => {
    const distinct = Array.from({ length: 40 }, (_, i) => sets.set(entry(`k${i}`, `v${i}`)));
    await Promise.all(distinct);
    for (let i = 0; i < 40; i++) expect(await read(`k${i}`)).toBe(`v${i}`);
    for (let i = 0; i < 3; i++) await sets.set(entry('same', `s${i}`));
    expect(await read('same')).toBe('s2');
  });

  it('fails only the set that cannot be written when others are written with it', async () => {
    const broken = { ...entry('broken', 'x'), walletId: null as unknown as number };
    const outcomes = await Promise.allSettled([
      sets.set(entry('before', '1')),
      sets.set(broken),
      sets.set(entry('after', '2')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([await read('before'), await read('after')]).toEqual(['1', '2']);
  });

  it("answers concurrent reads each with its own value; missing, expired and other wallets' keys are absent", async () => {
    const now = Date.now();
    await Promise.all([
      sets.set(entry('r1', 'one')),
      sets.set(entry('r2', 'two')),
      sets.set({ ...entry('old', 'stale'), expiresAt: now - 1 }),
      sets.set(entry('theirs', 'other wallet', 2)),
    ]);
    const wanted = ['r2', 'missing', 'r1', 'old', 'theirs', 'r1'];
    const values = await Promise.all(wanted.map((key) => reads.get({ walletId: 1, bucket: 'b', key }, now)));
    expect(values).toEqual(['two', undefined, 'one', undefined, undefined, 'one']);
  });

  it('reads a value written just before, once the write is answered', async () => {
    await sets.set(entry('fresh', 'v1'));
    expect(await reads.get({ walletId: 1, bucket: 'b', key: 'fresh' }, Date.now())).toBe('v1');
    await sets.set(entry('fresh', 'v2'));
    expect(await reads.get({ walletId: 1, bucket: 'b', key: 'fresh' }, Date.now())).toBe('v2');
  });

  it('does not keep in the read cache a value read while a set of its key was written but not yet committed', async () => {
    const cachedRead = () => cachedReads.get({ walletId: 1, bucket: 'b', key: 'window' }, Date.now());
    await cachedSets.set(entry('window', 'old'));
    expect(await cachedRead()).toBe('old');
    // On SQLite the set's statement runs now and commits at the end of the turn: this read sees the old value.
    const writing = cachedSets.set(entry('window', 'new'));
    const during = await cachedRead();
    if (kind === 'sqlite') expect(during).toBe('old');
    await writing;
    expect(await cachedRead()).toBe('new');
  });
});
