import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useUpgrade } from '../../helpers/upgrade.js';
import { getValue } from '../../../src/features/kv/kv.queries.js';

const INSERT_LOG =
  'INSERT INTO logs (id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance) VALUES ($1, 1, $2, $3, $4, 200, 3, NULL, $5, 1, 99)';

describeEachStore('upgrading an existing database', (kind) => {
  const upgrade = useUpgrade(kind);

  it('keeps every log row, in order, when the unique index on log ids goes (migration 7)', async () => {
    const store = await upgrade.from(7, [
      [INSERT_LOG, ['first', 'GET', '/kv/a/b', 'kv', 1000]],
      [INSERT_LOG, ['second', 'POST', '/kv/a/b', 'kv', 2000]],
    ]);
    await store.writeOne(INSERT_LOG, ['third', 'GET', '/token', 'token', 3000]);
    // Ids are random and never looked up: the schema no longer spends an index on them.
    await store.writeOne(INSERT_LOG, ['third', 'GET', '/token', 'token', 4000]);
    const rows = await store.read.all<{ id: string; path: string; created_at: number }>(
      'SELECT id, path, created_at FROM logs ORDER BY seq',
    );
    expect(rows).toEqual([
      { id: 'first', path: '/kv/a/b', created_at: 1000 },
      { id: 'second', path: '/kv/a/b', created_at: 2000 },
      { id: 'third', path: '/token', created_at: 3000 },
      { id: 'third', path: '/token', created_at: 4000 },
    ]);
  });

  it('keeps every stored value, non-ASCII included, when PostgreSQL values become bytes (migration 8)', async () => {
    const value = 'héllo 😀 \\ "quoted"';
    const store = await upgrade.from(8, [
      [
        'INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES (1, $1, $2, $3, $4)',
        ['b', 'k', value, 9e12],
      ],
    ]);
    expect(await getValue(store.read, { walletId: 1, bucket: 'b', key: 'k' }, 0)).toBe(value);
  });
});
