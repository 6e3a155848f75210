import { errors } from '../../errors.js';
import type { OperationExample } from '../../http/openapi-operations.js';

/** One example exchange per delivery route, for the OpenAPI document only (src/http/openapi-operations.ts). */

const params = { webhookId: 'orders' };

const delivery = {
  id: 'msg_2Zq8Hc4Lr1Xy7Wb3',
  trigger: 'email',
  createdAt: '2026-06-01T12:00:00.000Z',
  status: 'success',
  attempts: 1,
  lastAttemptAt: '2026-06-01T12:00:00.000Z',
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
};

export const deliveryExamples = {
  list: {
    params,
    query: { n: 20, status: 'success' },
    response: { deliveries: [delivery], n: 1 },
    errors: { 404: errors.webhookNotFound().body },
  },
  get: {
    params: { ...params, deliveryId: delivery.id },
    response: {
      ...delivery,
      attempts: [
        {
          attempt: 1,
          trigger: 'email',
          at: '2026-06-01T12:00:00.000Z',
          statusCode: 200,
          ms: 142,
          error: null,
          responseBody: 'ok',
        },
      ],
      body: '{"type":"email.received","data":{"subject":"Hello"}}',
    },
    errors: { 404: [errors.webhookNotFound().body, errors.deliveryNotFound().body] },
  },
  redeliver: {
    params: { ...params, deliveryId: delivery.id },
    response: { success: true, attempt: 2, statusCode: 200, message: 'webhook delivered' },
    errors: { 404: [errors.webhookNotFound().body, errors.deliveryNotFound().body] },
  },
} satisfies Record<string, OperationExample>;
