import type { OkBody } from '../../api-types.js';

/** The webhook and delivery answers, as the service documents them (src/features/webhooks/*.schemas.ts). */
export type WebhookList = OkBody<'webhookList'>;
/** Header values always read back as `***`; `signingSecret` only on create and on `rotateSecret`. */
export type WebhookView = WebhookList['webhooks'][number];
export type ScheduleView = NonNullable<WebhookView['schedule']>;
export type TestResult = OkBody<'webhookTest'>;
export type DeliveryList = OkBody<'webhookDeliveries'>;
export type DeliverySummary = DeliveryList['deliveries'][number];
export type DeliveryStatus = DeliverySummary['status'];
/** `body`: the exact JSON text sent; null when over 1 MiB. */
export type DeliveryDetail = OkBody<'webhookDelivery'>;
export type Attempt = DeliveryDetail['attempts'][number];
export type RedeliveryResult = OkBody<'webhookRedeliver'>;

/** Every webhook call costs 1 credit (docs/contract.md#costs); the delivery history is free. */
export const WEBHOOK_CALL_COST = 1;
/**
 * What a redelivery costs: what the delivery's first attempt cost (redeliver.routes.ts): 1 for a test, 2 for a
 * scheduled run; mail costs 2 or 5 (with attachments), which the history does not say, so undefined.
 */
export function redeliveryCost(trigger: string): number | undefined {
  if (trigger === 'test') return 1;
  if (trigger === 'schedule') return 2;
  return undefined;
}
