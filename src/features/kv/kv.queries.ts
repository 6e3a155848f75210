import type { Sql, Store } from '../../store/store.js';
import { Batcher } from '../../lib/batcher.js';

export interface KvSet {
  readonly walletId: number;
  readonly bucket: string;
  readonly key: string;
  readonly value: string;
  readonly expiresAt: number;
}

const UPSERT = `INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (wallet_id, bucket, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;
const PG_UPSERT_MANY = `INSERT INTO kv (wallet_id, bucket, key, value, expires_at)
SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bytea[], $5::bigint[])
ON CONFLICT (wallet_id, bucket, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;

/** PostgreSQL keeps values as UTF-8 bytes (its TEXT cannot hold U+0000); SQLite as text. */
const stored = (store: Store, value: string): string | Buffer => (store.dialect === 'postgres' ? Buffer.from(value, 'utf8') : value);
/** Expiry is enforced on read, to the millisecond; the sweeper only reclaims space. */
const liveValue = (row: { value: string | Buffer; expires_at: number } | undefined, now: number): string | undefined =>
  row === undefined || row.expires_at <= now ? undefined : typeof row.value === 'string' ? row.value : row.value.toString('utf8');

type Outcome = { ok: true } | { ok: false; error: unknown };
const OK: Outcome = { ok: true };

/**
 * Writes KV sets. SQLite: each set joins the open group commit. PostgreSQL: every commit is a round trip
 * and a WAL flush, so the sets that arrive while the previous batch commits are written together, as one
 * statement (one commit); the last set of a key in a batch wins, as it would one after the other.
 */
export class KvSets {
  private readonly batcher: Batcher<KvSet, Outcome> | undefined;

  constructor(private readonly store: Store) {
    if (store.dialect === 'postgres') this.batcher = new Batcher((sets) => this.writeBatch(sets));
  }

  async set(entry: KvSet): Promise<void> {
    if (this.batcher === undefined) {
      await this.writeOne(entry);
      return;
    }
    const outcome = await this.batcher.submit(entry);
    if (!outcome.ok) throw outcome.error;
  }

  private async writeOne(entry: KvSet): Promise<void> {
    await this.store.writeOne(UPSERT, [entry.walletId, entry.bucket, entry.key, stored(this.store, entry.value), entry.expiresAt]);
  }

  private async writeBatch(sets: readonly KvSet[]): Promise<Outcome[]> {
    const latest = new Map<string, KvSet>();
    for (const entry of sets) latest.set(`${entry.walletId}\u0000${entry.bucket}\u0000${entry.key}`, entry);
    // One lock order for every batch, so batches of two instances cannot deadlock on each other's rows.
    const rows = [...latest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
    try {
      await this.store.writeOne(PG_UPSERT_MANY, [
        rows.map((row) => row.walletId),
        rows.map((row) => row.bucket),
        rows.map((row) => row.key),
        rows.map((row) => stored(this.store, row.value)),
        rows.map((row) => row.expiresAt),
      ]);
      return sets.map(() => OK);
    } catch {
      // Whatever failed the batch, each set answers for itself.
      return Promise.all(sets.map((entry) => this.writeOne(entry).then((): Outcome => OK, (error: unknown): Outcome => ({ ok: false, error }))));
    }
  }
}

export interface KvKey {
  readonly walletId: number;
  readonly bucket: string;
  readonly key: string;
}

const PG_READ_MANY = `SELECT wanted.i, kv.value, kv.expires_at
FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS wanted (wallet_id, bucket, key, i)
JOIN kv ON kv.wallet_id = wanted.wallet_id AND kv.bucket = wanted.bucket AND kv.key = wanted.key`;

/**
 * Reads KV values. SQLite: a local read, nothing to gain from batching. PostgreSQL: the reads that arrive
 * while the previous batch runs go together in one query (one round trip for many requests). A read is
 * sent after it was asked for, so it sees every write acknowledged before it.
 */
export class KvReads {
  private readonly batcher: Batcher<KvKey, { value: string | Buffer; expires_at: number } | undefined> | undefined;

  constructor(private readonly store: Store) {
    if (store.dialect === 'postgres') this.batcher = new Batcher((keys) => this.readBatch(keys));
  }

  async get(wanted: KvKey, now: number): Promise<string | undefined> {
    if (this.batcher === undefined) return getValue(this.store.read, wanted.walletId, wanted.bucket, wanted.key, now);
    return liveValue(await this.batcher.submit(wanted), now);
  }

  private async readBatch(keys: readonly KvKey[]): Promise<Array<{ value: string | Buffer; expires_at: number } | undefined>> {
    const rows = await this.store.read.all<{ i: number; value: Buffer; expires_at: number }>(PG_READ_MANY, [
      keys.map((wanted) => wanted.walletId),
      keys.map((wanted) => wanted.bucket),
      keys.map((wanted) => wanted.key),
    ]);
    const found: Array<{ value: Buffer; expires_at: number } | undefined> = keys.map(() => undefined);
    for (const row of rows) found[row.i - 1] = row;
    return found;
  }
}

export async function getValue(sql: Sql, walletId: number, bucket: string, key: string, now: number): Promise<string | undefined> {
  const row = await sql.get<{ value: string | Buffer; expires_at: number }>(
    'SELECT value, expires_at FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3',
    [walletId, bucket, key],
  );
  return liveValue(row, now);
}

/** True when a live entry was deleted; an expired one is removed too but reported as absent. */
export async function deleteValue(store: Store, walletId: number, bucket: string, key: string, now: number): Promise<boolean> {
  const rows = await store.writeOne<{ expires_at: number }>(
    'DELETE FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3 RETURNING expires_at',
    [walletId, bucket, key],
  );
  return rows.some((row) => row.expires_at > now);
}
