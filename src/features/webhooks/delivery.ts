import type { DeliveryTarget, SigningKeys } from '../../delivery-core/index.js';
import type { Sql } from '../../store/store.js';
import type { WebhookRecord } from './webhook-record.js';
import { findWebhook } from './webhooks.queries.js';

/**
 * A webhook's signing keys as stored, for src/delivery-core to sign with (src/delivery-core/signing.ts): the
 * current secret, and the one a rotation replaced with its time while it is kept.
 */
export function signingKeysOf(record: Pick<WebhookRecord, 'signingSecret' | 'previousSigningKey'>): SigningKeys {
  const previous = record.previousSigningKey;
  return previous === undefined
    ? { current: record.signingSecret }
    : { current: record.signingSecret, previous: previous.secret, rotatedAt: previous.rotatedAt };
}

/** Where a webhook's deliveries go now and how they are signed: retries and redeliveries follow the webhook as it is. */
export function deliveryTargetOf(record: WebhookRecord): DeliveryTarget {
  return { url: record.url, headers: record.headers, signingKeys: signingKeysOf(record) };
}

/** The retry worker's view of a webhook (src/delivery-core cannot import features; service.ts hands it this). */
export async function findDeliveryTarget(
  sql: Sql,
  walletId: number,
  webhookId: string,
): Promise<DeliveryTarget | undefined> {
  const record = await findWebhook(sql, walletId, webhookId);
  return record === undefined ? undefined : deliveryTargetOf(record);
}
