import type { Sql, Store } from '../store/store.js';

/**
 * The outbox (table inbound_outbox, migration 6): first attempts recorded in the unit of work that charged them
 * (inbound mail's), so a delivery promised is never lost, and claimed by one instance at a time to be sent. A claim
 * is a lease (`claim_until`): the instance that recorded an entry holds it first; once it runs out another takes
 * it over, compare-and-set, so exactly one instance sends it.
 */

export interface OutboxEntry {
  readonly id: string;
  readonly walletId: number;
  readonly webhookId: string;
  /** The JSON body to POST (already formatted). */
  readonly body: string;
  readonly cost: number;
  readonly balance: number;
}

export async function insertOutbox(tx: Sql, entry: OutboxEntry, now: number, claimUntil: number): Promise<void> {
  await tx.run(
    'INSERT INTO inbound_outbox (id, wallet_id, webhook_id, body, cost, balance, created_at, claim_until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [entry.id, entry.walletId, entry.webhookId, entry.body, entry.cost, entry.balance, now, claimUntil],
  );
}

/**
 * Takes an entry over from `expectedClaim` (compare-and-set), so exactly one instance delivers it.
 * Undefined when someone else took it or it is gone.
 */
export async function claimOutbox(
  store: Store,
  id: string,
  expectedClaim: number,
  claimUntil: number,
): Promise<OutboxEntry | undefined> {
  const [row] = await store.writeOne<{
    wallet_id: number;
    webhook_id: string;
    body: string;
    cost: number;
    balance: number;
  }>(
    'UPDATE inbound_outbox SET claim_until = $3 WHERE id = $1 AND claim_until = $2 RETURNING wallet_id, webhook_id, body, cost, balance',
    [id, expectedClaim, claimUntil],
  );
  return row === undefined
    ? undefined
    : { id, walletId: row.wallet_id, webhookId: row.webhook_id, body: row.body, cost: row.cost, balance: row.balance };
}

/** Entries whose claim ran out: their instance stopped before delivering them. */
export function findStaleOutbox(
  sql: Sql,
  now: number,
  limit: number,
): Promise<Array<{ id: string; claim_until: number; wallet_id: number }>> {
  return sql.all(
    'SELECT id, claim_until, wallet_id FROM inbound_outbox WHERE claim_until <= $1 ORDER BY claim_until LIMIT $2',
    [now, limit],
  );
}

/** Whether an entry is still waiting: a deletion of its webhook removes it (endDeliveriesOf). */
export async function outboxEntryWaits(sql: Sql, id: string): Promise<boolean> {
  return (await sql.get('SELECT 1 AS waiting FROM inbound_outbox WHERE id = $1', [id])) !== undefined;
}

/** A deleted webhook's mail not yet sent (endDeliveriesOf, in the deletion's unit). */
export async function deleteOutboxOf(tx: Sql, walletId: number, webhookId: string): Promise<void> {
  await tx.run('DELETE FROM inbound_outbox WHERE wallet_id = $1 AND webhook_id = $2', [walletId, webhookId]);
}

/** Routed content is not retained after delivery (docs/contract.md#deliveries, rule 5). */
export async function deleteOutbox(store: Store, id: string): Promise<void> {
  await store.writeOne('DELETE FROM inbound_outbox WHERE id = $1', [id]);
}
