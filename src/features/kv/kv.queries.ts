import type { Sql, Store } from '../../store/store.js';

export async function setValue(store: Store, walletId: number, bucket: string, key: string, value: string, expiresAt: number): Promise<void> {
  await store.writeOne(
    `INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (wallet_id, bucket, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    [walletId, bucket, key, value, expiresAt],
  );
}

/** Expiry is enforced here, on read, to the millisecond; the sweeper only reclaims space. */
export async function getValue(sql: Sql, walletId: number, bucket: string, key: string, now: number): Promise<string | undefined> {
  const row = await sql.get<{ value: string; expires_at: number }>(
    'SELECT value, expires_at FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3',
    [walletId, bucket, key],
  );
  return row !== undefined && row.expires_at > now ? row.value : undefined;
}

/** True when a live entry was deleted; an expired one is removed too but reported as absent. */
export async function deleteValue(store: Store, walletId: number, bucket: string, key: string, now: number): Promise<boolean> {
  const rows = await store.writeOne<{ expires_at: number }>(
    'DELETE FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3 RETURNING expires_at',
    [walletId, bucket, key],
  );
  return rows.some((row) => row.expires_at > now);
}
