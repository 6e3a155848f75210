import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import type { MeterSpec } from '../../http/metering.js';
import { refundServerErrors, walletOf } from '../../http/metering.js';
import { inListingTurn, inWalletShare } from '../../outbound/pools.js';
import { okText, responses, tokenAuth, PLAIN_TEXT } from '../../http/schemas.js';
import { sendTestDelivery } from './test-delivery.js';
import { TestResult, WebhookInput, WebhookList, WebhookParams, WebhookPatch, WebhookView } from './webhooks.schemas.js';
import { deleteWebhook, findWebhook, listWebhooks } from './webhooks.queries.js';
import { createWebhook, patchWebhook, replaceWebhook } from './webhooks.service.js';
import { webhookView } from './webhooks.view.js';
import { webhookExamples } from './webhooks.examples.js';

const meter: MeterSpec = { cost: 1, category: 'webhook' };
/** Reading webhooks writes nothing of the user's (docs/reference.md#durability-of-read-charges). */
const readMeter: MeterSpec = { ...meter, readOnly: true };
/** A listing refused for its wallet's queue (503, inListingTurn) costs nothing, as every 5xx. */
const listMeter: MeterSpec = { ...readMeter, settle: refundServerErrors };
/** docs/contract.md#deliveries, rule 4: a delivery, test included, is logged under its webhookId. */
const testMeter: MeterSpec = {
  cost: 1,
  category: 'webhook-delivery',
  durableBeforeHandler: true,
  // Nothing was sent on a 5xx (a wallet over its share of the delivery pool, the store away): it costs nothing.
  settle: refundServerErrors,
  logPath: (request: FastifyRequest) => (request.params as { webhookId?: string }).webhookId ?? request.url,
};
/** Headers (20 × 1000), options (10 × 500) and a 2 KiB template fit with room to spare. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;
const tags = ['webhook'];

/** `receivesMail`: the SMTP listener or the inbound relay is on, so a mailbox address can receive (app.ts). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; receivesMail: boolean }> = async (
  app,
  { deps, receivesMail },
) => {
  const contextOf = (request: FastifyRequest) => ({
    mailDomain: deps.config.mailDomain,
    walletHash: walletOf(request).hash,
  });

  app.post(
    '/webhook',
    {
      config: { meter },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        operationId: 'webhookCreate',
        example: webhookExamples.create,
        summary:
          'Create a webhook: mailbox mode, or scheduled mode when `schedule` is given. The signing secret is shown only here.',
        tags,
        security: tokenAuth,
        body: WebhookInput,
        response: responses(WebhookView, 400, 401, 402, 409, 413),
      },
    },
    async (request) => {
      const record = await createWebhook(deps, walletOf(request).id, request.body, receivesMail);
      return webhookView(record, contextOf(request), record.signingSecret);
    },
  );

  app.get(
    '/webhook',
    {
      config: { meter: listMeter },
      schema: {
        operationId: 'webhookList',
        example: webhookExamples.list,
        summary: 'List webhooks',
        tags,
        security: tokenAuth,
        response: responses(WebhookList, 401, 402, 503),
      },
    },
    async (request) => {
      const walletId = walletOf(request).id;
      const context = contextOf(request);
      // Up to 100 webhooks of up to 64 KiB each, read and made into views: a listing (inListingTurn).
      return inListingTurn(deps.pools, walletId, async () => {
        const records = await listWebhooks(deps.store.read, walletId);
        return { webhooks: records.map((record) => webhookView(record, context)) };
      });
    },
  );

  app.get(
    '/webhook/:webhookId',
    {
      config: { meter: readMeter },
      schema: {
        operationId: 'webhookGet',
        example: webhookExamples.get,
        summary: 'Get a webhook',
        tags,
        security: tokenAuth,
        params: WebhookParams,
        response: responses(WebhookView, 400, 401, 402, 404),
      },
    },
    async (request) => {
      const record = await findWebhook(deps.store.read, walletOf(request).id, request.params.webhookId);
      if (record === undefined) throw errors.webhookNotFound();
      return webhookView(record, contextOf(request));
    },
  );

  app.put(
    '/webhook/:webhookId',
    {
      config: { meter },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        operationId: 'webhookReplace',
        example: webhookExamples.replace,
        summary:
          'Replace a webhook wholesale (mode chosen by `schedule`; the mailbox address is kept while in mailbox mode)',
        tags,
        security: tokenAuth,
        params: WebhookParams,
        body: WebhookInput,
        response: responses(WebhookView, 400, 401, 402, 404, 413),
      },
    },
    async (request) => {
      const record = await replaceWebhook(
        deps,
        { walletId: walletOf(request).id, webhookId: request.params.webhookId },
        request.body,
        receivesMail,
      );
      return webhookView(record, contextOf(request));
    },
  );

  app.patch(
    '/webhook/:webhookId',
    {
      config: { meter },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        operationId: 'webhookUpdate',
        example: webhookExamples.update,
        summary:
          'Change only the given fields; `schedule: null` returns to mailbox mode; `rotateSecret: true` issues a new signing secret (the old one still signs beside it for 24 h)',
        tags,
        security: tokenAuth,
        params: WebhookParams,
        body: WebhookPatch,
        response: responses(WebhookView, 400, 401, 402, 404, 413),
      },
    },
    async (request) => {
      const { record, newSecret } = await patchWebhook(
        deps,
        { walletId: walletOf(request).id, webhookId: request.params.webhookId },
        request.body,
        receivesMail,
      );
      return webhookView(record, contextOf(request), newSecret);
    },
  );

  app.delete(
    '/webhook/:webhookId',
    {
      config: { meter },
      schema: {
        operationId: 'webhookDelete',
        example: webhookExamples.delete,
        summary: 'Delete a webhook',
        tags,
        security: tokenAuth,
        params: WebhookParams,
        response: responses(okText(), 400, 401, 402, 404),
      },
    },
    async (request, reply) => {
      if (!(await deleteWebhook(deps.store, walletOf(request).id, request.params.webhookId)))
        throw errors.webhookNotFound();
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );

  await app.register(async (testScope) => {
    // The test call takes no body: whatever is sent is not parsed.
    testScope.removeAllContentTypeParsers();
    testScope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    testScope.post(
      '/webhook/:webhookId/test',
      {
        config: { meter: testMeter },
        schema: {
          operationId: 'webhookTest',
          example: webhookExamples.test,
          summary:
            'Send the dummy payload of the webhook’s mode to its URL; a failed delivery is still a 200 with success false',
          tags,
          security: tokenAuth,
          params: WebhookParams,
          response: responses(TestResult, 400, 401, 402, 404, 503),
        },
      },
      async (request) => {
        const wallet = walletOf(request);
        const { webhookId } = request.params as { webhookId: string };
        const record = await findWebhook(deps.store.read, wallet.id, webhookId);
        if (record === undefined) throw errors.webhookNotFound();
        const outcome = await inWalletShare(deps.pools.askedDeliveries, wallet.id, () =>
          sendTestDelivery(deps, record, {
            walletId: wallet.id,
            walletHash: wallet.hash,
            cost: request.meter?.charged ?? 0,
            balance: request.meter?.balance ?? 0,
          }),
        );
        // The delivery logged this call (its real status and error, its delivery id): metering adds no second row.
        if (request.meter !== undefined) request.meter.logged = true;
        return outcome;
      },
    );
  });
};
