import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useUpgrade } from '../../helpers/upgrade.js';
import { getValue } from '../../../src/features/kv/kv.queries.js';
import { LOG_BATCH_CAPACITY } from '../../../src/ledger/log-batches.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import { logPage } from '../../../src/features/logs/logs.page.js';
import { NEWEST } from '../../../src/features/logs/logs.cursor.js';

const INSERT_LOG =
  'INSERT INTO logs (id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance) VALUES ($1, 1, $2, $3, $4, 200, 3, NULL, $5, 1, 99)';

describeEachStore('upgrading an existing database', (kind) => {
  const upgrade = useUpgrade(kind);

  it('keeps every log row, in order, when the unique index on log ids goes (migration 7)', async () => {
    const store = await upgrade.from(7, [
      [INSERT_LOG, ['first', 'GET', '/kv/a/b', 'kv', 1000]],
      [INSERT_LOG, ['second', 'POST', '/kv/a/b', 'kv', 2000]],
    ]);
    const rows = await store.read.all<{ id: string; path: string; created_at: number }>(
      'SELECT id, path, created_at FROM logs ORDER BY seq',
    );
    expect(rows).toEqual([
      { id: 'first', path: '/kv/a/b', created_at: 1000 },
      { id: 'second', path: '/kv/a/b', created_at: 2000 },
    ]);
  });

  it('keeps every log entry, its fields, order and place, when the log becomes batches (migration 21)', async () => {
    const INSERT_FULL_LOG = `INSERT INTO logs (id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance, delivery_id, note) VALUES ($1, $2, 'POST', $3, $4, $5, 7, $6, $7, $8, 90, $9, $10)`;
    const store = await upgrade.from(21, [
      [INSERT_FULL_LOG, ['a', 1, '/kv/a/"quoted" \\ é', 'kv', 200, null, 1000, 1, null, null]],
      [INSERT_FULL_LOG, ['b', 1, '/webhook/x', 'webhook-delivery', 502, 'receiver said no', 1000, 0, 'msg_1', null]],
      [INSERT_FULL_LOG, ['c', 2, '/manage/wallets/h/credit', 'manage', 200, null, 2000, -5, null, 'refund']],
      [INSERT_FULL_LOG, ['a', 1, '/token', 'token', 200, null, 3000, 0, null, null]],
    ]);
    const rows = await store.read.all<Record<string, unknown>>(
      'SELECT seq, id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance, delivery_id, note FROM logs ORDER BY seq',
    );
    const entry = (seq: number, fields: Record<string, unknown>) => ({
      seq: seq * LOG_BATCH_CAPACITY,
      method: 'POST',
      response_time_ms: 7,
      error: null,
      balance: 90,
      delivery_id: null,
      note: null,
      ...fields,
    });
    expect(rows.map((row) => ({ ...row, seq: Number(row.seq), wallet_id: Number(row.wallet_id) }))).toEqual([
      entry(1, {
        id: 'a',
        wallet_id: 1,
        path: '/kv/a/"quoted" \\ é',
        endpoint: 'kv',
        status_code: 200,
        created_at: 1000,
        cost: 1,
      }),
      entry(2, {
        id: 'b',
        wallet_id: 1,
        path: '/webhook/x',
        endpoint: 'webhook-delivery',
        status_code: 502,
        error: 'receiver said no',
        created_at: 1000,
        cost: 0,
        delivery_id: 'msg_1',
      }),
      entry(3, {
        id: 'c',
        wallet_id: 2,
        path: '/manage/wallets/h/credit',
        endpoint: 'manage',
        status_code: 200,
        created_at: 2000,
        cost: -5,
        note: 'refund',
      }),
      entry(4, {
        id: 'a',
        wallet_id: 1,
        path: '/token',
        endpoint: 'token',
        status_code: 200,
        created_at: 3000,
        cost: 0,
      }),
    ]);
    // Pages read the batches as the service wrote them, newest first; batches written after the upgrade come after.
    await insertLogs(store, [
      {
        id: 'd',
        walletId: 1,
        method: 'GET',
        path: '/kv/a/b',
        endpoint: 'kv',
        statusCode: 200,
        responseTimeMs: 1,
        createdAt: 4000,
        cost: 1,
        balance: 89,
      },
    ]);
    const page = await logPage(store, { walletId: 1, n: 10, before: NEWEST, since: 0 });
    expect(page.rows.map((row) => row.id)).toEqual(['d', 'a', 'b', 'a']);
    expect(page.rows[2]).toMatchObject({
      error: 'receiver said no',
      delivery_id: 'msg_1',
      seq: 2 * LOG_BATCH_CAPACITY,
    });
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

  it('writes call-log batches compressed with lz4 on PostgreSQL, read back whole (migration 22)', async () => {
    const store = await upgrade.from(22);
    // A batch of 100 calls, as the log buffer writes one: its JSON well past the size PostgreSQL compresses from.
    const records = Array.from({ length: 100 }, (_, i) => ({
      id: `call-${i}`,
      walletId: 1,
      method: 'GET',
      path: `/kv/bucket/key-${i}`,
      endpoint: 'kv' as const,
      statusCode: 200,
      responseTimeMs: 1,
      createdAt: 5000 + i,
      cost: 1,
      balance: 1000 - i,
    }));
    await insertLogs(store, records);
    if (kind === 'postgres') {
      const [row] = await store.read.all<{ method: string | null }>(
        'SELECT pg_column_compression(entries) AS method FROM log_batches',
      );
      expect(row?.method).toBe('lz4');
    }
    const page = await logPage(store, { walletId: 1, n: 100, before: NEWEST, since: 0 });
    expect(page.rows.map((row) => row.id)).toEqual(records.map((record) => record.id).reverse());
  });
});
