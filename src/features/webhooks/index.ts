/** What the webhooks feature offers the others; everything else in this folder is its own. */
export { findMailboxWebhooks, findWebhook } from './webhooks.queries.js';
export { type MailboxMode, type WebhookRecord } from './webhook-record.js';
export { deliveryTargetOf, findDeliveryTarget, webhookSigner } from './delivery.js';
export { WebhookParams } from './webhooks.schemas.js';
export { checkHeaders, redactHeaders } from './webhook-headers.js';
export { SIGNING_KEY_OVERLAP_MS, signatureHeadersFor, signingKeysOf, type SigningKeys } from './signing-keys.js';
