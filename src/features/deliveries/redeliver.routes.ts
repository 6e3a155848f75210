import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import type { MeterSpec } from '../../http/metering.js';
import { refundServerErrors, walletOf } from '../../http/metering.js';
import { inWalletShare } from '../../outbound/pools.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { deliverAgain, DELIVERY_RETENTION_MS, findDelivery, reserveAttempt } from '../../delivery-core/index.js';
import type { DeliveryRecord } from '../../delivery-core/index.js';
import { deliveryTargetOf, findWebhook } from '../webhooks/index.js';
import type { WebhookRecord } from '../webhooks/index.js';
import { DeliveryParams, RedeliveryResult } from './deliveries.schemas.js';
import { deliveryExamples } from './deliveries.examples.js';

/** What a refused redelivery (unknown or expired delivery, unknown webhook) costs: the webhook routes' price. */
const REFUSAL_COST = 1;

type Params = { webhookId?: unknown; deliveryId?: unknown };

/**
 * POST /webhook/{id}/deliveries/{deliveryId}/redeliver (docs/reference.md#redelivery): the recorded body sent again, with the same
 * delivery id, a fresh signature and a new attempt number, to the webhook as it is now. It costs what the delivery's
 * first attempt cost (its stored `cost`: 1 for a test, 2 for mail or a scheduled run, 5 for mail with attachments),
 * charged by metering before the send like the test route; a redelivery is one attempt (no retries of its own).
 */
export const redeliverRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  /** The webhook and delivery each request looked up to price it (the charge happens before the handler runs). */
  const priced = new WeakMap<FastifyRequest, { webhook: WebhookRecord; delivery: DeliveryRecord | undefined }>();

  const lookUp = async (walletId: number, params: Params) => {
    if (typeof params.webhookId !== 'string' || typeof params.deliveryId !== 'string') return undefined;
    const webhook = await findWebhook(deps.store.read, walletId, params.webhookId);
    if (webhook === undefined) return undefined;
    // Expired rows not yet swept are found too: they answer 410, not 404. Rows made before the webhook was created are
    // a deleted webhook's that had its id: not found (nor priced) here.
    const found = await findDelivery(deps.store.read, {
      walletId,
      webhookId: params.webhookId,
      deliveryId: params.deliveryId,
      expiredAt: webhook.createdAt - 1,
    });
    return { webhook, delivery: found?.delivery };
  };
  const redeliverable = (delivery: DeliveryRecord): boolean =>
    delivery.body !== null && delivery.createdAt > deps.clock.now() - DELIVERY_RETENTION_MS;

  const meter: MeterSpec = {
    cost: (request) => {
      const delivery = priced.get(request)?.delivery;
      return delivery !== undefined && redeliverable(delivery) ? delivery.cost : REFUSAL_COST;
    },
    failureCost: REFUSAL_COST,
    category: 'webhook-delivery',
    durableBeforeHandler: true,
    // Nothing was sent on a 5xx (a wallet over its share of the delivery pool, the store away): it costs nothing.
    settle: refundServerErrors,
    logPath: (request) => (request.params as Params).webhookId?.toString() ?? request.url,
  };

  app.post(
    '/webhook/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { meter },
      // Runs before metering's charge (route hooks come first): the price is the delivery's.
      preValidation: async (request) => {
        if (request.meter === undefined) return;
        const found = await lookUp(request.meter.wallet.id, request.params as Params);
        if (found !== undefined) priced.set(request, found);
      },
      schema: {
        operationId: 'webhookRedeliver',
        'x-cost': `1, 2 or 5: what the delivery cost (1 for a test, 2 for mail or a scheduled run, 5 for mail with attachments); ${REFUSAL_COST} when refused`,
        example: deliveryExamples.redeliver,
        summary:
          'Send a recorded delivery again: same delivery id, fresh signature, a new attempt; costs what the delivery cost',
        tags: ['webhook'],
        security: tokenAuth,
        params: DeliveryParams,
        response: responses(RedeliveryResult, 400, 401, 402, 404, 410, 503),
      },
    },
    async (request) => {
      const wallet = walletOf(request);
      const { deliveryId } = request.params;
      // Looked up once, before the charge (preValidation): the webhook as it is now, and the delivery priced.
      const looked = priced.get(request);
      if (looked === undefined) throw errors.webhookNotFound();
      const { webhook, delivery } = looked;
      if (delivery === undefined) throw errors.deliveryNotFound();
      // Mail content is gone once its delivery ended (docs/contract.md#deliveries, rule 5); every body is gone after 7 days.
      if (delivery.body === null || !redeliverable(delivery)) throw errors.deliveryExpired();
      const body = delivery.body;
      // The attempt is numbered once the wallet's turn in the delivery pool comes: a refused call takes none.
      const result = await inWalletShare(deps.pools.askedDeliveries, wallet.id, async () => {
        const attempt = await reserveAttempt(deps.store, deliveryId);
        if (attempt === undefined) throw errors.deliveryNotFound();
        return deliverAgain(deps, {
          kind: 'redelivery',
          delivery: { ...delivery, body },
          attempt,
          target: deliveryTargetOf(webhook),
          cost: request.meter?.charged ?? 0,
          balance: request.meter?.balance ?? 0,
        });
      });
      // The attempt logged this call (its status, error and delivery id): metering adds no second row.
      if (request.meter !== undefined) request.meter.logged = true;
      return {
        success: result.ok,
        attempt: result.attempt,
        statusCode: result.status ?? null,
        message: result.ok ? 'webhook delivered' : `webhook call failed: ${result.cause}`,
      };
    },
  );
};
