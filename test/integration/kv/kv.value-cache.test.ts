import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

/**
 * On SQLite (one instance, the database's only writer) repeated reads of a key are answered from memory
 * (src/features/kv/kv.value-cache.ts); on PostgreSQL other instances write too, so every read asks the store.
 * Either way a read after an acknowledged set or delete sees it, and expiry holds to the millisecond.
 */
describeEachStore('key-value reads after writes (the read cache)', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });
  let token: string;
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: string, as = token) =>
    get().inject({
      method,
      url: `/kv/${path}`,
      headers: { 'x-token': as, 'content-type': 'text/plain' },
      ...(payload === undefined ? {} : { payload }),
    });
  const value = async (path: string, as = token) => {
    const answer = await call('GET', path, undefined, as);
    return answer.statusCode === 200 ? answer.body : answer.statusCode;
  };
  beforeAll(async () => {
    token = await get().createToken(10_000);
  });

  it('reads the new value after a set of a key that was just read', async () => {
    await call('POST', 'cache/over', 'first');
    expect(await value('cache/over')).toBe('first');
    expect(await value('cache/over')).toBe('first');
    expect((await call('POST', 'cache/over', 'second')).statusCode).toBe(200);
    expect(await value('cache/over')).toBe('second');
  });

  it('finds nothing after a delete of a key that was just read, and the value set after it', async () => {
    await call('POST', 'cache/gone', 'here');
    expect(await value('cache/gone')).toBe('here');
    expect((await call('DELETE', 'cache/gone')).statusCode).toBe(200);
    expect(await value('cache/gone')).toBe(404);
    await call('POST', 'cache/gone', 'back');
    expect(await value('cache/gone')).toBe('back');
  });

  it('finds nothing once a value that was read has expired, to the millisecond', async () => {
    await call('POST', 'cache/brief?ttl=5', 'short-lived');
    expect(await value('cache/brief')).toBe('short-lived');
    clock.advance(4_999);
    expect(await value('cache/brief')).toBe('short-lived');
    clock.advance(1);
    expect(await value('cache/brief')).toBe(404);
  });

  it('keeps wallets apart: the same bucket and key read by two tokens', async () => {
    const other = await get().createToken(100);
    await call('POST', 'cache/shared', 'mine');
    await call('POST', 'cache/shared', 'theirs', other);
    expect(await value('cache/shared')).toBe('mine');
    expect(await value('cache/shared', other)).toBe('theirs');
  });

  it('reads the new value when a set and reads of the key run at once', async () => {
    await call('POST', 'cache/race', 'before');
    expect(await value('cache/race')).toBe('before');
    const [, set] = await Promise.all([value('cache/race'), call('POST', 'cache/race', 'after'), value('cache/race')]);
    expect(set.statusCode).toBe(200);
    expect(await value('cache/race')).toBe('after');
  });

  it('reads every writer its own last acknowledged write while other calls keep reading the same keys', async () => {
    const writers = Array.from({ length: 8 }, (_, w) => `cache/stress-${w}`);
    let writing = true;
    // Readers keep every key in the cache, so each write has an entry to forget at any moment.
    const readers = Array.from({ length: 4 }, async () => {
      while (writing) await Promise.all(writers.map((path) => value(path)));
    });
    const mismatches: string[] = [];
    await Promise.all(
      writers.map(async (path, w) => {
        for (let round = 0; round < 25; round++) {
          if (round % 5 === 4) {
            await call('DELETE', path);
            const seen = await value(path);
            if (seen !== 404) mismatches.push(`${path} after delete: ${String(seen)}`);
            continue;
          }
          const written = `w${w}-r${round}`;
          // Reads of the key sent with the set: some run while it is written, before its commit.
          const [set] = await Promise.all([call('POST', path, written), value(path), value(path), value(path)]);
          expect(set.statusCode).toBe(200);
          const seen = await value(path);
          if (seen !== written) mismatches.push(`${path}: ${String(seen)} instead of ${written}`);
        }
      }),
    );
    writing = false;
    await Promise.all(readers);
    expect(mismatches).toEqual([]);
  });

  it(
    kind === 'sqlite'
      ? 'answers a repeated read from memory: a change made behind the service is not seen (SQLite: no other writer)'
      : 'asks the store on every read: a change made by another writer is seen at once (PostgreSQL: other instances)',
    async () => {
      await call('POST', 'cache/behind', 'as set');
      expect(await value('cache/behind')).toBe('as set');
      const walletId = await walletIdOf(get().deps, token);
      const changed = get().deps.store.storedText('changed elsewhere');
      await get().deps.store.writeOne('UPDATE kv SET value = $1 WHERE wallet_id = $2 AND bucket = $3 AND key = $4', [
        changed,
        walletId,
        'cache',
        'behind',
      ]);
      expect(await value('cache/behind')).toBe(kind === 'sqlite' ? 'as set' : 'changed elsewhere');
    },
  );
});
