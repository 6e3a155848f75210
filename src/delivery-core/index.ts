/**
 * Every outbound webhook call and its history (docs/reference.md#delivery-history): test deliveries, inbound mail, scheduled runs,
 * low-balance notifications, retries and redeliveries all send through here. Core: imports no feature; features call it.
 */
export {
  deliver,
  deliverAgain,
  DELIVERY_RETENTION_MS,
  MAX_STORED_BODY_BYTES,
  type Delivered,
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
  type Signer,
} from './delivery.js';
export { findDelivery, listDeliveries, type AttemptRecord, type DeliveryRecord } from './history.js';
export { MAX_RETRY_ATTEMPTS, RETRY_BACKOFFS } from './retry-policy.js';
export { reserveAttempt } from './retry.queries.js';
export { runDueRetries, startRetryWorker, type FindDeliveryTarget } from './retry-worker.js';
