import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import type { MeterSpec } from '../../http/metering.js';
import { walletOf } from '../../http/metering.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { DELIVERY_RETENTION_MS, findDelivery, listDeliveries } from '../../delivery-core/index.js';
import type { DeliveryStatus } from '../../delivery-core/index.js';
import { findWebhook, WebhookParams } from '../webhooks/index.js';
import {
  attemptView,
  DeliveriesQuery,
  DeliveryDetail,
  DeliveryList,
  DeliveryParams,
  summaryView,
} from './deliveries.schemas.js';
import { deliveryExamples } from './deliveries.examples.js';
import { redeliverRoutes } from './redeliver.routes.js';

/** Free, metered and logged like GET /token/logs: reading a webhook's history costs nothing. */
const meter: MeterSpec = { cost: 0, category: 'webhook', readOnly: true };
const tags = ['webhook'];

/** The delivery history of a wallet's webhook (docs/reference.md#delivery-history); another wallet's webhook is `Webhook not found`. */
export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  /**
   * The webhook must be the caller's: its history is looked up only then. Rows at or before the returned time are left
   * out: expired ones, and those of a deleted webhook whose id this one took again (made before it was created).
   */
  const historyStart = async (walletId: number, webhookId: string): Promise<number> => {
    const webhook = await findWebhook(deps.store.read, walletId, webhookId);
    if (webhook === undefined) throw errors.webhookNotFound();
    return Math.max(deps.clock.now() - DELIVERY_RETENTION_MS, webhook.createdAt - 1);
  };

  app.get(
    '/webhook/:webhookId/deliveries',
    {
      config: { meter },
      schema: {
        operationId: 'webhookDeliveries',
        example: deliveryExamples.list,
        summary: 'A webhook’s deliveries of the last 7 days, newest first (free)',
        tags,
        security: tokenAuth,
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: responses(DeliveryList, 400, 401, 404),
      },
    },
    async (request) => {
      const walletId = walletOf(request).id;
      const { webhookId } = request.params;
      const deliveries = await listDeliveries(deps.store, {
        walletId,
        webhookId,
        limit: request.query.n,
        status: request.query.status as DeliveryStatus | undefined,
        expiredAt: await historyStart(walletId, webhookId),
      });
      return { deliveries: deliveries.map(summaryView), n: deliveries.length };
    },
  );

  app.get(
    '/webhook/:webhookId/deliveries/:deliveryId',
    {
      config: { meter },
      schema: {
        operationId: 'webhookDelivery',
        example: deliveryExamples.get,
        summary: 'One delivery: its attempts and the exact JSON body sent (free)',
        tags,
        security: tokenAuth,
        params: DeliveryParams,
        response: responses(DeliveryDetail, 400, 401, 404),
      },
    },
    async (request) => {
      const walletId = walletOf(request).id;
      const { webhookId, deliveryId } = request.params;
      const found = await findDelivery(deps.store.read, {
        walletId,
        webhookId,
        deliveryId,
        expiredAt: await historyStart(walletId, webhookId),
      });
      if (found === undefined) throw errors.deliveryNotFound();
      return { ...summaryView(found.delivery), attempts: found.attempts.map(attemptView), body: found.delivery.body };
    },
  );

  await app.register(redeliverRoutes, { deps });
};
