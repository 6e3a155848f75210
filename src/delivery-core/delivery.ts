import type { SigningKeys } from './signing.js';

/** What a delivery is made of, for every trigger (src/delivery-core/deliver.ts sends it). */

/** What caused a delivery, as its history stores it. */
export const DELIVERY_TRIGGERS = ['test', 'email', 'schedule', 'low_balance', 'redelivery'] as const;
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number];

/** Where a delivery stands: `pending` while a retry is still to come, else how its last attempt went. */
export const DELIVERY_STATUSES = ['pending', 'success', 'failure'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** JSON serialised already (the inbound outbox stores it so): delivered as these exact bytes. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Where an attempt goes and the keys it is signed with (none for low-balance notifications: no secret). */
export interface DeliveryTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Each attempt is signed afresh with these (signing.ts); the webhooks feature reads them from the webhook. */
  readonly signingKeys?: SigningKeys;
}

export interface Delivery extends DeliveryTarget {
  readonly trigger: DeliveryTrigger;
  readonly walletId: number;
  /** The webhook delivered for; for low-balance notifications the log path `low-balance`. */
  readonly webhookId: string;
  /** The webhook's retry policy: attempts allowed after the first (absent or 0: the single attempt of docs/contract.md#deliveries). */
  readonly retryAttempts?: number;
  /** The value to POST, or its JSON already serialised (the inbound outbox stores it so). */
  readonly body: unknown;
  /** Credits this delivery was charged and the balance after it, for the log. */
  readonly cost: number;
  readonly balance: number;
  /**
   * Its `webhook-id` when it has one already: a delivery sent again after its instance stopped (the outbox's) keeps
   * the id it was first sent with, so receivers recognise the second copy. Default: a new one.
   */
  readonly deliveryId?: string;
}
