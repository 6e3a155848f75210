import { errors } from '../../errors.js';
import type { OperationExample } from '../../http/openapi-operations.js';

/** One example exchange per webhook route, for the OpenAPI document only (src/http/openapi-operations.ts). */

const HASH = 'a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8';
const params = { webhookId: 'orders' };
const notFound = { 404: errors.webhookNotFound().body };

const view = {
  webhookId: 'orders',
  webhook: 'https://hooks.example.com/orders',
  headers: { authorization: '***' },
  format: 'slack',
  includeAttachments: true,
  email: 'r_7f3k9q2m@mail.example.com',
  hash: HASH,
};
const input = {
  webhookId: 'orders',
  url: 'https://hooks.example.com/orders',
  headers: { authorization: 'Bearer s3cret' },
  format: 'slack',
};

export const webhookExamples = {
  create: {
    body: input,
    response: { ...view, signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    errors: { 409: errors.webhookExists().body },
  },
  list: { response: { webhooks: [view] } },
  get: { params, response: view, errors: notFound },
  replace: {
    params,
    body: { url: 'https://hooks.example.com/orders-v2', format: 'discord' },
    response: { ...view, webhook: 'https://hooks.example.com/orders-v2', format: 'discord' },
    errors: notFound,
  },
  update: {
    params,
    body: { rotateSecret: true },
    response: { ...view, signingSecret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD' },
    errors: notFound,
  },
  delete: { params, response: 'OK', errors: notFound },
  test: { params, response: { success: true, message: 'test webhook delivered' }, errors: notFound },
} satisfies Record<string, OperationExample>;
