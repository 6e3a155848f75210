/**
 * Every outbound webhook call and its history (docs/reference.md#delivery-history): test deliveries, inbound mail, scheduled runs,
 * low-balance notifications, retries and redeliveries all send through here, signed here (signing.ts); inbound mail's
 * first attempts wait in the outbox (outbox.ts) until sent. Core: imports no feature; features call it.
 */
export {
  deliver,
  deliverAgain,
  DELIVERY_RETENTION_MS,
  MAX_STORED_BODY_BYTES,
  type Delivered,
  type DeliveryPorts,
  type LaterAttempt,
} from './deliver.js';
export {
  DELIVERY_STATUSES,
  DELIVERY_TRIGGERS,
  JsonText,
  type Delivery,
  type DeliveryStatus,
  type DeliveryTarget,
  type DeliveryTrigger,
} from './delivery.js';
export { checkHeaders, MAX_HEADER_VALUE_LENGTH, MAX_HEADERS, redactHeaders } from './delivery-headers.js';
export { findDelivery, listDeliveries, type AttemptRecord, type DeliveryRecord } from './history.js';
export {
  OUTBOX_CLAIM_MS,
  OUTBOX_RECOVERY_INTERVAL_MS,
  OutboxDeliverer,
  type FindOutboxTarget,
  type OutboxTarget,
  type ReadyDelivery,
} from './outbox.js';
export { MAX_RETRY_ATTEMPTS, RETRY_BACKOFFS } from './retry-policy.js';
export { endDeliveriesOf, reserveAttempt } from './retry.queries.js';
export { RETRY_CLAIM_LEASE_MS, runDueRetries, startRetryWorker, type FindDeliveryTarget } from './retry-worker.js';
export { newSigningSecret, SIGNING_KEY_OVERLAP_MS, type SigningKeys } from './signing.js';
