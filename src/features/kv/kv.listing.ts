import type { Sql } from '../../store/store.js';
import { bucketCountCap, prefixEnd } from './kv.rules.js';

/**
 * Listings beyond the contract (docs/reference.md#key-value-store): a bucket's keys and a wallet's buckets, a page at a time, in byte order. Both
 * walk the primary key index (wallet_id, bucket, key); bucket and key compare by bytes on both engines (SQLite
 * BINARY; PostgreSQL COLLATE "C", migrations 14 and 17). The cursor is the last name of the page (opaque to clients).
 */
export interface Listing {
  readonly walletId: number;
  /** Only names starting with it ('' for all). */
  readonly prefix: string;
  /** Only names after it (the previous page's cursor), or undefined from the start. */
  readonly cursor: string | undefined;
  readonly limit: number;
}

export interface KeyPage {
  /** `size`: the value's length in UTF-8 bytes. */
  readonly keys: ReadonlyArray<{ key: string; expiresAt: number; size: number }>;
  /** The last key listed when more remain, else null. */
  readonly cursor: string | null;
}

/** `prefix` as an index range on `column`: from it to its end (none for the empty prefix). */
function prefixRange(column: string, prefix: string, params: unknown[]): string {
  const end = prefix === '' ? undefined : prefixEnd(prefix);
  return `${column} >= $${params.push(prefix)}` + (end === undefined ? '' : ` AND ${column} < $${params.push(end)}`);
}

/** A statement and its parameters; exported so a test can check the plan walks the index. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * One page of a bucket's live keys: a range of the index from the prefix or cursor to the prefix's end, LIMIT limit + 1
 * (the extra row says whether more remain). Expired rows the sweeper has not reclaimed yet are skipped, as a read
 * would not find them.
 */
export function keyPageStatement(listing: Listing & { readonly bucket: string }, now: number): Statement {
  const params: unknown[] = [listing.walletId, listing.bucket, listing.cursor ?? '', now, listing.limit + 1];
  const range = prefixRange('key', listing.prefix, params);
  return {
    sql: `SELECT key, expires_at, octet_length(value) AS size FROM kv
WHERE wallet_id = $1 AND bucket = $2 AND key > $3 AND ${range} AND expires_at > $4 ORDER BY key LIMIT $5`,
    params,
  };
}

export async function listKeys(
  sql: Sql,
  listing: Listing & { readonly bucket: string },
  now: number,
): Promise<KeyPage> {
  const statement = keyPageStatement(listing, now);
  const rows = await sql.all<{ key: string; expires_at: number; size: number | string }>(
    statement.sql,
    statement.params,
  );
  const page = rows.slice(0, listing.limit);
  return {
    keys: page.map((row) => ({ key: row.key, expiresAt: Number(row.expires_at), size: Number(row.size) })),
    cursor: rows.length > listing.limit ? (page[page.length - 1]?.key ?? null) : null,
  };
}

export interface BucketSummary {
  readonly bucket: string;
  /** Live keys among the bucket's first bucketCountCap(limit) entries (all of them unless `capped`). */
  readonly keys: number;
  /** Their values' length in UTF-8 bytes. */
  readonly size: number;
  /** The bucket holds more than bucketCountCap(limit) entries: `keys` and `size` count only the first ones, a lower bound. */
  readonly capped: boolean;
}

export interface BucketPage {
  readonly buckets: readonly BucketSummary[];
  /** The last bucket this page looked at when more remain, else null. */
  readonly cursor: string | null;
}

/**
 * One page of a wallet's buckets, in one statement whose work is bounded whatever the wallet holds:
 * - the buckets: a loose index scan (a recursive step per bucket, each one index seek to the next bucket name) for
 *   limit + 1 of them, rather than a DISTINCT or GROUP BY that would read every key;
 * - per bucket, its first bucketCountCap(limit) entries in key order (index range, LIMIT) are counted and summed, and
 *   one index-only probe at that offset says whether there are more; a page counts BUCKET_PAGE_COUNT_BUDGET entries at
 *   most (100 buckets of 1000 entries each took 0.3 s on SQLite, on the event loop, for one credit); the extra bucket
 *   that tells whether more remain is not counted.
 * A bucket whose examined entries are all expired (not swept yet) is left out, so a page may hold fewer than `limit`
 * buckets while its cursor is not null.
 */
export function bucketPageStatement(listing: Listing, now: number): Statement {
  const params: unknown[] = [listing.walletId, listing.cursor ?? '', listing.limit, now, bucketCountCap(listing.limit)];
  const range = prefixRange('kv.bucket', listing.prefix, params);
  const next = (after: string): string =>
    `(SELECT kv.bucket FROM kv WHERE kv.wallet_id = $1 AND kv.bucket > ${after} AND ${range} ORDER BY kv.bucket LIMIT 1)`;
  const examined = `SELECT value, expires_at FROM kv WHERE kv.wallet_id = $1 AND kv.bucket = found.bucket ORDER BY kv.key LIMIT $5`;
  return {
    sql: `WITH RECURSIVE found (bucket, depth) AS (
  SELECT ${next('$2')}, 1
  UNION ALL
  SELECT ${next('found.bucket')}, found.depth + 1 FROM found WHERE found.bucket IS NOT NULL AND found.depth <= $3
)
SELECT found.bucket,
  CASE WHEN found.depth <= $3 THEN (SELECT count(*) FROM (${examined}) AS entries WHERE entries.expires_at > $4) END AS keys,
  CASE WHEN found.depth <= $3 THEN (SELECT sum(octet_length(entries.value)) FROM (${examined}) AS entries WHERE entries.expires_at > $4) END AS size,
  EXISTS (SELECT 1 FROM kv WHERE kv.wallet_id = $1 AND kv.bucket = found.bucket ORDER BY kv.key LIMIT 1 OFFSET $5) AS capped
FROM found WHERE found.bucket IS NOT NULL ORDER BY found.depth`,
    params,
  };
}

export async function listBuckets(sql: Sql, listing: Listing, now: number): Promise<BucketPage> {
  const statement = bucketPageStatement(listing, now);
  const rows = await sql.all<{
    bucket: string;
    keys: number | string;
    size: number | string | null;
    capped: number | boolean;
  }>(statement.sql, statement.params);
  const page = rows.slice(0, listing.limit);
  const buckets = page
    .map((row) => ({
      bucket: row.bucket,
      keys: Number(row.keys),
      size: Number(row.size ?? 0),
      capped: row.capped === true || row.capped === 1,
    }))
    .filter((summary) => summary.keys > 0 || summary.capped);
  return { buckets, cursor: rows.length > listing.limit ? (page[page.length - 1]?.bucket ?? null) : null };
}
