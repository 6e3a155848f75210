import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { bucketPageStatement, keyPageStatement } from '../../../src/features/kv/kv.listing.js';
import type { Statement } from '../../../src/features/kv/kv.listing.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/**
 * The listings' work is bounded by the page, not by what the wallet holds: their statements walk the primary key
 * index (wallet_id, bucket, key) and never scan the kv table. The plans are read from the engines themselves.
 */
describeEachStore('key-value listings: query plans walk the index', (kind) => {
  const get = useTestApp(kind);

  beforeAll(async () => {
    // Some rows in more than one wallet and bucket, so that the planner has a table to choose a way through.
    const rows: unknown[][] = [];
    for (let wallet = 1; wallet <= 3; wallet++)
      for (let bucket = 0; bucket < 20; bucket++)
        for (let key = 0; key < 20; key++)
          rows.push([wallet, `b${bucket}`, `k${key}`, get().deps.store.storedText('value'), NOW + 60_000]);
    for (const row of rows)
      await get().deps.store.writeOne(
        'INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)',
        row,
        { touches: ['kv'] },
      );
    if (kind === 'postgres') await get().deps.store.writeOne('ANALYZE kv');
  });

  /** The plan's lines: SQLite's EXPLAIN QUERY PLAN details; PostgreSQL's EXPLAIN with sequential and bitmap scans made a last resort (the planner would pick them for tables this small). */
  async function plan(statement: Statement): Promise<string[]> {
    const { store } = get().deps;
    if (kind === 'sqlite') {
      const rows = await store.read.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.params);
      return rows.map((row) => row.detail);
    }
    return store.write(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      await tx.run('SET LOCAL enable_bitmapscan = off');
      const rows = await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params);
      return rows.map((row) => row['QUERY PLAN']);
    });
  }

  const fullScan = kind === 'sqlite' ? /\bSCAN kv\b/ : /Seq Scan on kv|kv_expires/;
  const indexWalk =
    kind === 'sqlite'
      ? /SEARCH kv USING (COVERING )?INDEX sqlite_autoindex_kv_1/
      : /Index (Only )?Scan using kv_pkey on kv/;

  it.each([
    ['a page of keys', keyPageStatement({ walletId: 2, bucket: 'b3', prefix: '', cursor: undefined, limit: 20 }, NOW)],
    [
      'a page of keys after a cursor, within a prefix',
      keyPageStatement({ walletId: 2, bucket: 'b3', prefix: 'k1', cursor: 'k12', limit: 20 }, NOW),
    ],
    ['a page of buckets', bucketPageStatement({ walletId: 2, prefix: '', cursor: undefined, limit: 20 }, NOW)],
    [
      'a page of buckets after a cursor, within a prefix',
      bucketPageStatement({ walletId: 2, prefix: 'b1', cursor: 'b12', limit: 5 }, NOW),
    ],
  ])('%s', async (_case, statement) => {
    const lines = await plan(statement);
    const shown = lines.join('\n');
    expect(
      lines.filter((line) => fullScan.test(line)),
      shown,
    ).toEqual([]);
    const walks = lines.filter((line) => indexWalk.test(line));
    expect(walks.length, shown).toBeGreaterThan(0);
    // Each walk seeks to the wallet's part of the index (PostgreSQL could otherwise walk all of it, filtering).
    if (kind === 'postgres')
      expect(
        lines.filter((line) => /Index Cond: \(\(wallet_id = /.test(line)),
        shown,
      ).toHaveLength(walks.length);
  });

  it('a page of keys comes in index order, without sorting', async () => {
    const lines = await plan(
      keyPageStatement({ walletId: 2, bucket: 'b3', prefix: 'k', cursor: 'k1', limit: 20 }, NOW),
    );
    const sorts = lines.filter((line) => /TEMP B-TREE|Sort/.test(line));
    expect(sorts, lines.join('\n')).toEqual([]);
  });
});
