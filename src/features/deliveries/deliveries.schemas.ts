import { Type } from '@sinclair/typebox';
import { ISODate, Nullable } from '../../http/schemas.js';
import { DELIVERY_STATUSES, DELIVERY_TRIGGERS } from '../../delivery-core/index.js';
import type { AttemptRecord, DeliveryRecord } from '../../delivery-core/index.js';
import { isoTime } from '../../lib/time.js';
import { WebhookParams } from '../webhooks/index.js';

/** Schemas and views of GET /webhook/{id}/deliveries[/{deliveryId}] (docs/reference.md#delivery-history). */

export const MAX_DELIVERIES = 100;
export const DEFAULT_DELIVERIES = 20;

export const DeliveriesQuery = Type.Object({
  n: Type.Integer({
    minimum: 1,
    maximum: MAX_DELIVERIES,
    default: DEFAULT_DELIVERIES,
    'x-error': `must be an integer from 1 to ${MAX_DELIVERIES}`,
  }),
  status: Type.Optional(
    Type.String({
      enum: [...DELIVERY_STATUSES],
      'x-error': 'must be success, failure or pending',
      description: 'Only deliveries in this state',
    }),
  ),
});

export const DeliveryParams = Type.Object({
  ...WebhookParams.properties,
  deliveryId: Type.String({ description: 'A delivery id, `msg_…`' }),
});

const summaryFields = {
  id: Type.String({ description: 'The delivery id: the `webhook-id` header of every attempt' }),
  trigger: Type.String({ enum: [...DELIVERY_TRIGGERS] }),
  createdAt: ISODate,
  status: Type.String({ enum: [...DELIVERY_STATUSES] }),
  attempts: Type.Integer(),
  lastAttemptAt: Nullable(ISODate),
  nextAttemptAt: Nullable(ISODate),
  lastStatusCode: Nullable(Type.Integer({ description: 'The receiver’s status; null when no answer came' })),
  lastError: Nullable(Type.String()),
};

export const DeliverySummary = Type.Object(summaryFields);
export const DeliveryList = Type.Object({ deliveries: Type.Array(DeliverySummary), n: Type.Integer() });

const Attempt = Type.Object({
  attempt: Type.Integer(),
  trigger: Type.String({
    enum: [...DELIVERY_TRIGGERS],
    description: 'The delivery’s trigger (first attempt and retries), or `redelivery`',
  }),
  at: ISODate,
  statusCode: Nullable(Type.Integer()),
  ms: Type.Integer(),
  error: Nullable(Type.String()),
  responseBody: Nullable(Type.String({ description: 'The first 1 KiB of the receiver’s answer' })),
});

/** One delivery: the list's fields, with `attempts` the attempts themselves (oldest first) rather than their number. */
export const DeliveryDetail = Type.Object({
  ...summaryFields,
  attempts: Type.Array(Attempt),
  body: Nullable(
    Type.String({
      description: 'The exact JSON text sent, as a string (parse it for the payload); null when it was over 1 MiB',
    }),
  ),
});

const isoOrNull = (epochMs: number | null): string | null => (epochMs === null ? null : isoTime(epochMs));

export function summaryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    trigger: delivery.trigger,
    createdAt: isoTime(delivery.createdAt),
    status: delivery.status,
    attempts: delivery.attempts,
    lastAttemptAt: isoOrNull(delivery.lastAttemptAt),
    nextAttemptAt: isoOrNull(delivery.nextAttemptAt),
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
  };
}

export function attemptView(attempt: AttemptRecord) {
  return {
    attempt: attempt.attempt,
    trigger: attempt.trigger,
    at: isoTime(attempt.at),
    statusCode: attempt.statusCode,
    ms: attempt.ms,
    error: attempt.error,
    responseBody: attempt.responseBody,
  };
}

/** The answer of POST …/redeliver: how the new attempt went, in the test route's words. */
export const RedeliveryResult = Type.Object({
  success: Type.Boolean(),
  attempt: Type.Integer({ description: 'The attempt’s number in the delivery’s history' }),
  statusCode: Nullable(Type.Integer({ description: 'The receiver’s status; null when no answer came' })),
  message: Type.String({ description: '"webhook delivered" or "webhook call failed: <cause>"' }),
});
