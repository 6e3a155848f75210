import { randomBytes } from 'node:crypto';
import type { DeliveryTarget, Signer } from '../../delivery-core/index.js';
import type { Sql } from '../../store/store.js';
import { signatureHeadersFor, signingKeysOf } from './signing-keys.js';
import type { WebhookRecord } from './webhook-record.js';
import { findWebhook } from './webhooks.queries.js';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** How src/deliveries signs a webhook's deliveries: with its signing keys (both during a rotation's overlap, signing-keys.ts). */
export function webhookSigner(keys: Pick<WebhookRecord, 'signingSecret' | 'previousSigningKey'>): Signer {
  const signing = signingKeysOf(keys);
  return (messageId, timestampSeconds, body, now) =>
    signatureHeadersFor(signing, { messageId, timestampSeconds, body }, now);
}

/** Where a webhook's deliveries go now and how they are signed: retries and redeliveries follow the webhook as it is. */
export function deliveryTargetOf(record: WebhookRecord): DeliveryTarget {
  return { url: record.url, headers: record.headers, sign: webhookSigner(record) };
}

/** The retry worker's view of a webhook (src/deliveries cannot import features; service.ts hands it this). */
export async function findDeliveryTarget(
  sql: Sql,
  walletId: number,
  webhookId: string,
): Promise<DeliveryTarget | undefined> {
  const record = await findWebhook(sql, walletId, webhookId);
  return record === undefined ? undefined : deliveryTargetOf(record);
}
