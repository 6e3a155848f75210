import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { walletOf } from '../../http/metering.js';
import { errorResponses, okText, responses, tokenAuth, PLAIN_TEXT } from '../../http/schemas.js';
import {
  handleStripeEvent,
  rechargeLink,
  RECHARGE_DONE_PATH,
  verifyStripeEvent,
  WEBHOOK_PATH,
} from './billing.service.js';
import { RECHARGE_AMOUNTS } from './recharge-plans.js';
import type { RechargeAmount } from './recharge-plans.js';

// Closed, as the contract defines the query (docs/contract.md#recharge): an unknown parameter is 400 (this free call is logged with its path).
const RechargeQuery = Type.Object(
  {
    amount: Type.String({
      enum: [...RECHARGE_AMOUNTS],
      default: '1',
      'x-error': 'must be 1 or 3',
      description: 'Millions of credits to buy: 1 or 3',
    }),
  },
  { additionalProperties: false },
);
const DoneQuery = Type.Object({ cancelled: Type.Optional(Type.String()) });
const WebhookAnswer = Type.Object({
  received: Type.Boolean(),
  credited: Type.Boolean(),
  credits: Type.Optional(Type.Integer()),
  reason: Type.Optional(Type.String()),
});

/** Stripe events are small; anything far larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export const billingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // The signature covers the exact bytes Stripe sent: keep the body raw, whatever its content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request: FastifyRequest, body, done) => done(null, body),
  );

  app.get(
    '/recharge',
    {
      config: { meter: { cost: 0, category: 'service', readOnly: true } },
      schema: {
        operationId: 'rechargeLink',
        summary: 'Recharge link (free)',
        description:
          'A Stripe payment link for 1 or 3 million credits, as plain text, with the wallet hash as `client_reference_id`. ' +
          'Credits arrive when Stripe reports the payment. 501 `Recharge is not configured` when Stripe is not set up.',
        tags: ['token'],
        security: tokenAuth,
        querystring: RechargeQuery,
        response: responses(okText('Payment URL'), 400, 401, 501, 502),
        example: { query: { amount: '1' }, response: 'https://checkout.stripe.com/c/pay/cs_live_a1B2c3D4e5F6g7H8' },
      },
    },
    async (request, reply) => {
      const link = await rechargeLink(deps, request.query.amount as RechargeAmount, walletOf(request).hash);
      reply.type(PLAIN_TEXT);
      return link;
    },
  );

  app.get(
    RECHARGE_DONE_PATH,
    {
      schema: {
        operationId: 'rechargeDone',
        summary: 'Where Stripe sends the payer back',
        tags: ['token'],
        querystring: DoneQuery,
        response: { 200: okText('A short message') },
        example: {
          response:
            'Thank you: your payment was received. The credits are added to your wallet as soon as Stripe confirms it.',
        },
      },
    },
    async (request, reply) => {
      const text =
        request.query.cancelled === undefined
          ? 'Thank you: your payment was received. The credits are added to your wallet as soon as Stripe confirms it.'
          : 'The payment was cancelled; nothing was charged.';
      reply.type(PLAIN_TEXT);
      return text;
    },
  );

  app.post(
    WEBHOOK_PATH,
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        operationId: 'stripeWebhook',
        summary: 'Stripe webhook (signed with STRIPE_WEBHOOK_SECRET)',
        description:
          'Credits a wallet once per paid Checkout Session (`checkout.session.completed`, `checkout.session.async_payment_succeeded`).',
        tags: ['billing'],
        response: { 200: WebhookAnswer, 400: errorResponses[400], 413: errorResponses[413], 501: errorResponses[501] },
        example: {
          response: { received: true, credited: true, credits: 1000000 },
          errors: { 400: 'Invalid stripe-signature' },
        },
      },
    },
    async (request) => {
      const startedAt = deps.clock.now();
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const event = verifyStripeEvent(deps, body, request.headers['stripe-signature']);
      const outcome = await handleStripeEvent(deps, event, startedAt);
      if (outcome.credited) {
        request.log.info({ event: event.id, credits: outcome.credits }, 'wallet recharged');
        return { received: true, credited: true, credits: outcome.credits };
      }
      return { received: true, credited: false, reason: outcome.reason };
    },
  );
};
