import type { Store } from './store.js';

/** A claim of the lease `name` by `holder`, from `now` for `ttlMs`. */
export interface LeaseClaim {
  readonly name: string;
  readonly holder: string;
  readonly now: number;
  readonly ttlMs: number;
}

/**
 * Claims the named lease until `now + ttlMs` unless another holder's lease is still running.
 * Work that must happen once across instances (sweeps) runs only when this returns true.
 */
export async function claimLease(store: Store, { name, holder, now, ttlMs }: LeaseClaim): Promise<boolean> {
  const rows = await store.writeOne<{ holder: string }>(
    `INSERT INTO leases (name, holder, until_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_at = excluded.until_at
     WHERE leases.until_at <= $4 OR leases.holder = $2
     RETURNING holder`,
    [name, holder, now + ttlMs, now],
  );
  return rows.length > 0;
}
