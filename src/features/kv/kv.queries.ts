import type { ColumnForm, ManyStatement, Sql, Store } from '../../store/store.js';
import type { DebitOutcome, Paid, PaidRow, PaidWrite, PaidWriteRow } from '../../store/debits.js';
import { KvValueCache } from './kv.value-cache.js';

export interface KvSet {
  readonly walletId: number;
  readonly bucket: string;
  readonly key: string;
  readonly value: string;
  readonly expiresAt: number;
}

const UPSERT_CONFLICT =
  'ON CONFLICT (wallet_id, bucket, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at';
/** The upsert of the rows `source` gives (`rows`, or `rows WHERE condition`). */
const upsertFrom = (source: string) => `INSERT INTO kv (wallet_id, bucket, key, value, expires_at)
SELECT * FROM ${source}
${UPSERT_CONFLICT}`;

/** One set; `columns` is the same for a whole batch (see ManyStatement). */
const UPSERT_MANY = {
  sql: `INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)
${UPSERT_CONFLICT}`,
  columns: { types: ['bigint', 'text', 'text', 'bytes', 'bigint'], sql: upsertFrom },
  touches: ['kv'],
} as const satisfies ManyStatement;

/** The sets as a write that pays its charge in its own commit, where the store can (Debits.paidWrites). */
const PAID_UPSERT: PaidWrite = {
  statement: UPSERT_MANY,
  whenPaid: (rows, paid) => upsertFrom(`${rows} WHERE ${paid}`),
};

/** What gives the statements that pay for themselves (the ledger, which charges the wallets): undefined where the store has none. */
export interface Payers {
  paidWrites<T>(write: PaidWrite): ((row: PaidWriteRow) => Promise<Paid<T>>) | undefined;
  paidReads<T>(read: ColumnForm): ((row: PaidRow) => Promise<Paid<T>>) | undefined;
}

/** Expiry is enforced on read, to the millisecond; the sweeper only reclaims space. */
const liveValue = (row: { value: string | Buffer; expires_at: number } | undefined, now: number): string | undefined =>
  row === undefined || row.expires_at <= now
    ? undefined
    : typeof row.value === 'string'
      ? row.value
      : row.value.toString('utf8');

/** The cache of read values where the store allows one (see KvValueCache), for KvSets, KvReads and deleteValue to share. */
export function kvValueCacheFor(store: Store): KvValueCache | undefined {
  return store.soleWriter ? new KvValueCache() : undefined;
}

/** Writes KV sets: one statement each, in the store's own commit (SQLite's group commit), or paying its charge in its own (setPaid). */
export class KvSets {
  private readonly paid: ((row: PaidWriteRow) => Promise<Paid<undefined>>) | undefined;

  /** `payers`: where given (the ledger), sets may pay their charge in their own commit (setPaid). */
  constructor(
    private readonly store: Store,
    private readonly cache?: KvValueCache,
    payers?: Payers,
  ) {
    this.paid = payers?.paidWrites<undefined>(PAID_UPSERT);
  }

  /**
   * A set that charges `amount` to its wallet in its own commit (metering's throughStatement): written only when the charge
   * is accepted, and answered with the charge's outcome. Only where the payers have a paid writer for this store.
   */
  async setPaid(entry: KvSet, amount: number): Promise<{ readonly outcome: DebitOutcome; readonly result: undefined }> {
    if (this.paid === undefined) throw new Error('this store commits no charge with a write');
    try {
      const { outcome } = await this.paid({
        owner: entry.walletId,
        amount,
        row: this.row(entry),
        key: keyOf(entry),
      });
      return { outcome, result: undefined };
    } finally {
      this.cache?.forget(KvValueCache.key(entry.walletId, entry.bucket, entry.key));
    }
  }

  async set(entry: KvSet): Promise<void> {
    try {
      await this.store.writeOne(UPSERT_MANY.sql, this.row(entry), UPSERT_MANY);
    } finally {
      // Before the set is acknowledged (or refused): a read from now on asks the store.
      this.cache?.forget(KvValueCache.key(entry.walletId, entry.bucket, entry.key));
    }
  }

  private row(entry: KvSet): unknown[] {
    return [entry.walletId, entry.bucket, entry.key, this.store.storedText(entry.value), entry.expiresAt];
  }
}

export interface KvKey {
  readonly walletId: number;
  readonly bucket: string;
  readonly key: string;
}

type StoredValue = { value: string | Buffer; expires_at: number } | undefined;

/** Many keys in one query: the paid reads' batches (Debits.paidReads), one row of parameters a read. */
const READ_MANY: ColumnForm = {
  types: ['bigint', 'text', 'text'],
  sql: (rows) => `SELECT wanted.i, kv.value, kv.expires_at
FROM ${rows} WITH ORDINALITY AS wanted (wallet_id, bucket, key, i)
JOIN kv ON kv.wallet_id = wanted.wallet_id AND kv.bucket = wanted.bucket AND kv.key = wanted.key`,
};

/**
 * Reads KV values: a local read (SQLite, through the value cache where there is one), or one paying its charge in its
 * own statement (getPaid: on PostgreSQL the reads of a wallet that arrive while its previous batch runs are one query).
 * A read is sent after it was asked for, so it sees every write acknowledged before it.
 */
export class KvReads {
  private readonly paid: ((row: PaidRow) => Promise<Paid<NonNullable<StoredValue>>>) | undefined;

  /** `payers`: where given (the ledger), reads may pay their charge in their own statement (getPaid). */
  constructor(
    private readonly store: Store,
    private readonly cache?: KvValueCache,
    payers?: Payers,
  ) {
    this.paid = payers?.paidReads(READ_MANY);
  }

  /**
   * A read that charges `amount` to its wallet in its own statement (metering's throughStatement): read only when the charge
   * is accepted, answered with the charge's outcome and (`result`) the live value, if any. Only where the payers have a paid
   * reader for this store (which keeps no value cache: it is not the database's sole writer).
   */
  async getPaid(
    wanted: KvKey,
    now: number,
    amount: number,
  ): Promise<{ readonly outcome: DebitOutcome; readonly result: string | undefined }> {
    if (this.paid === undefined) throw new Error('this store commits no charge with a read');
    const { outcome, found } = await this.paid({
      owner: wanted.walletId,
      amount,
      row: [wanted.walletId, wanted.bucket, wanted.key],
    });
    return { outcome, result: liveValue(found, now) };
  }

  async get(wanted: KvKey, now: number): Promise<string | undefined> {
    const cache = this.cache;
    if (cache === undefined) return liveValue(await readValue(this.store.read, wanted), now);
    const name = KvValueCache.key(wanted.walletId, wanted.bucket, wanted.key);
    const cached = cache.get(name);
    // An entry past its expiry: the row is too (a set since would have removed the entry), so nothing is there.
    if (cached !== undefined) return cached.expiresAt > now ? cached.value : undefined;
    const generation = cache.begin();
    const row = await readValue(this.store.read, wanted);
    if (row !== undefined && typeof row.value === 'string')
      cache.fill(name, { value: row.value, expiresAt: row.expires_at }, generation);
    return liveValue(row, now);
  }
}

function readValue(sql: Sql, wanted: KvKey): Promise<StoredValue> {
  return sql.get<{ value: string | Buffer; expires_at: number }>(
    'SELECT value, expires_at FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3',
    [wanted.walletId, wanted.bucket, wanted.key],
  );
}

export async function getValue(sql: Sql, wanted: KvKey, now: number): Promise<string | undefined> {
  return liveValue(await readValue(sql, wanted), now);
}

/** A wallet's entry as one string, for the paid statements' rows (PaidWriteRow.key): the wallet is the row's owner. */
const keyOf = (entry: { readonly bucket: string; readonly key: string }): string => `${entry.bucket}\u0000${entry.key}`;

/** The delete of the rows `source` names (`AS gone`), while `condition` holds; it returns what it removed. */
const deleteFrom = (
  source: string,
  condition = 'true',
) => `DELETE FROM kv USING ${source} AS gone (wallet_id, bucket, key)
WHERE kv.wallet_id = gone.wallet_id AND kv.bucket = gone.bucket AND kv.key = gone.key AND ${condition}
RETURNING kv.bucket, kv.key, kv.expires_at`;

const DELETE_MANY = {
  sql: 'DELETE FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3 RETURNING bucket, key, expires_at',
  columns: { types: ['bigint', 'text', 'text'], sql: (rows) => deleteFrom(rows) },
  touches: ['kv'],
} as const satisfies ManyStatement;

type Deleted = { readonly bucket: string | null; readonly key: string | null; readonly expires_at: number };

/** The deletes as a write that pays its charge in its own commit, where the store can (Debits.paidWrites). */
const PAID_DELETE: PaidWrite = {
  statement: DELETE_MANY,
  whenPaid: deleteFrom,
  keyOfReturned: (row) => {
    const { bucket, key } = row as Deleted;
    return bucket === null || key === null ? undefined : keyOf({ bucket, key });
  },
};

/** Deletes KV entries: true when a live entry was deleted; an expired one is removed too but reported as absent. */
export class KvDeletes {
  private readonly paid: ((row: PaidWriteRow) => Promise<Paid<Deleted>>) | undefined;

  /** `cache`: kvValueCacheFor's, forgotten before the answer; `payers` as KvSets'. */
  constructor(
    private readonly store: Store,
    private readonly cache?: KvValueCache,
    payers?: Payers,
  ) {
    this.paid = payers?.paidWrites<Deleted>(PAID_DELETE);
  }

  async delete({ walletId, bucket, key }: KvKey, now: number): Promise<boolean> {
    try {
      const rows = await this.store.writeOne<Deleted>(DELETE_MANY.sql, [walletId, bucket, key], DELETE_MANY);
      return rows.some((row) => row.expires_at > now);
    } finally {
      this.cache?.forget(KvValueCache.key(walletId, bucket, key));
    }
  }

  /** A delete that charges `amount` to its wallet in its own commit, as KvSets.setPaid: the charge's outcome, and whether a live entry went. */
  async deletePaid(
    wanted: KvKey,
    now: number,
    amount: number,
  ): Promise<{ readonly outcome: DebitOutcome; readonly result: boolean }> {
    if (this.paid === undefined) throw new Error('this store commits no charge with a write');
    try {
      const { outcome, found } = await this.paid({
        owner: wanted.walletId,
        amount,
        row: [wanted.walletId, wanted.bucket, wanted.key],
        key: keyOf(wanted),
      });
      return { outcome, result: found !== undefined && found.expires_at > now };
    } finally {
      this.cache?.forget(KvValueCache.key(wanted.walletId, wanted.bucket, wanted.key));
    }
  }
}
