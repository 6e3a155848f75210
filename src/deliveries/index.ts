/**
 * Every outbound webhook call and its history (issue 16): test deliveries, inbound mail, scheduled runs and
 * low-balance notifications all send through `deliver`. Core: imports no feature; features call it.
 */
export { deliver, DELIVERY_RETENTION_MS, MAX_STORED_BODY_BYTES, type Delivered } from './deliver.js';
export { DELIVERY_STATUSES, DELIVERY_TRIGGERS, JsonText, type Delivery, type DeliveryStatus, type DeliveryTrigger, type Signer } from './delivery.js';
export { findDelivery, listDeliveries, type AttemptRecord, type DeliveryRecord } from './history.js';
