/** What the webhooks feature offers the others; everything else in this folder is its own. */
export { findMailboxWebhooks, findWebhook } from './webhooks.queries.js';
export { type MailboxMode, type WebhookRecord } from './webhook-record.js';
export { deliveryTargetOf, findDeliveryTarget, signingKeysOf } from './delivery.js';
export { WebhookParams } from './webhooks.schemas.js';
