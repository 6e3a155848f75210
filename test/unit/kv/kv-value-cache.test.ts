import { describe, expect, it } from 'vitest';
import { KvValueCache } from '../../../src/features/kv/kv.value-cache.js';

const entry = (value: string, expiresAt = Number.MAX_SAFE_INTEGER) => ({ value, expiresAt });

describe('KV value cache', () => {
  it('keeps what a read found, per wallet, bucket and key', () => {
    const cache = new KvValueCache();
    cache.fill(KvValueCache.key(1, 'b', 'k'), entry('one'), cache.begin());
    cache.fill(KvValueCache.key(2, 'b', 'k'), entry('two'), cache.begin());
    expect(cache.get(KvValueCache.key(1, 'b', 'k'))?.value).toBe('one');
    expect(cache.get(KvValueCache.key(2, 'b', 'k'))?.value).toBe('two');
    expect(cache.get(KvValueCache.key(1, 'b\u0000k', ''))).toBeUndefined();
  });

  it('forgets a key that was written', () => {
    const cache = new KvValueCache();
    const name = KvValueCache.key(1, 'b', 'k');
    cache.fill(name, entry('old'), cache.begin());
    cache.forget(name);
    expect(cache.get(name)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep what a read found when a key was forgotten while it ran (it may be older than the write)', () => {
    const cache = new KvValueCache();
    const name = KvValueCache.key(1, 'b', 'k');
    const generation = cache.begin();
    cache.forget(name);
    cache.fill(name, entry('read before the write'), generation);
    expect(cache.get(name)).toBeUndefined();
    cache.fill(name, entry('read after it'), cache.begin());
    expect(cache.get(name)?.value).toBe('read after it');
  });

  it('holds at most its number of entries, dropping the oldest filled', () => {
    const cache = new KvValueCache(3, 1_000);
    for (const key of ['a', 'b', 'c', 'd']) cache.fill(KvValueCache.key(1, 'b', key), entry(key), cache.begin());
    expect(cache.size).toBe(3);
    expect(cache.get(KvValueCache.key(1, 'b', 'a'))).toBeUndefined();
    expect(cache.get(KvValueCache.key(1, 'b', 'd'))?.value).toBe('d');
  });

  it('holds at most its number of value characters, counting a refilled key once', () => {
    const cache = new KvValueCache(100, 10);
    cache.fill(KvValueCache.key(1, 'b', 'x'), entry('12345'), cache.begin());
    cache.fill(KvValueCache.key(1, 'b', 'x'), entry('12345'), cache.begin());
    cache.fill(KvValueCache.key(1, 'b', 'y'), entry('12345'), cache.begin());
    expect(cache.size).toBe(2);
    cache.fill(KvValueCache.key(1, 'b', 'z'), entry('1'), cache.begin());
    expect(cache.get(KvValueCache.key(1, 'b', 'x'))).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.fill(KvValueCache.key(1, 'b', 'big'), entry('12345678901'), cache.begin());
    expect(cache.get(KvValueCache.key(1, 'b', 'big'))).toBeUndefined();
  });
});
