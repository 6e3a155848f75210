import { randomBytes } from 'node:crypto';
import type { Signer } from '../../deliveries/index.js';
import { signatureHeadersFor, signingKeysOf } from './signing-keys.js';
import type { WebhookRecord } from './webhook-record.js';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** How src/deliveries signs a webhook's deliveries: with its signing keys (both during a rotation's overlap, signing-keys.ts). */
export function webhookSigner(keys: Pick<WebhookRecord, 'signingSecret' | 'previousSigningKey'>): Signer {
  const signing = signingKeysOf(keys);
  return (messageId, timestampSeconds, body, now) => signatureHeadersFor(signing, messageId, timestampSeconds, body, now);
}
