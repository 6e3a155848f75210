import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { OutboundError } from '../../outbound/outbound-client.js';
import { okText, responses, tokenAuth, PLAIN_TEXT } from '../../http/schemas.js';
import { walletOf } from '../../http/metering.js';
import { redactHeaders } from '../../delivery-core/index.js';
import { redactOptions } from '../../formats/index.js';
import { underLowBalanceWebhook, webhookContentProblem } from './low-balance-rules.js';
import { SettingsUpdate, SettingsView } from './settings.schemas.js';
import type { LowBalanceWebhook } from './settings.schemas.js';
import { readSettings, updateSettings } from './settings.queries.js';

const meter = { cost: 1, category: 'settings' } as const;
/** Reading the settings writes nothing of the user's (docs/reference.md#durability-of-read-charges). */
const readMeter = { ...meter, readOnly: true } as const;

/** Save-time checks: the URL must be public HTTPS (the same check webhooks get), headers and format sane. */
/** What needs no network first, as a webhook's own save does: the clients, which see no address policy, word it alike. */
async function checkWebhook(deps: Deps, webhook: LowBalanceWebhook): Promise<string | null> {
  const contentProblem = webhookContentProblem(webhook);
  if (contentProblem !== null) return contentProblem;
  try {
    await deps.outbound.checkUrl(webhook.url);
  } catch (error) {
    return underLowBalanceWebhook(error instanceof OutboundError ? error.message : 'Invalid url');
  }
  return null;
}

function view(webhook: LowBalanceWebhook) {
  return {
    url: webhook.url,
    headers: redactHeaders(webhook.headers ?? {}),
    ...(webhook.format ? { format: webhook.format } : {}),
    ...(webhook.template !== undefined && webhook.format === 'custom' ? { template: webhook.template } : {}),
    ...(webhook.options !== undefined ? { options: redactOptions(webhook.options) } : {}),
  };
}

export const settingsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/token/settings',
    {
      config: { meter: readMeter },
      schema: {
        operationId: 'settingsGet',
        summary: 'Low-balance notification settings',
        tags: ['token'],
        security: tokenAuth,
        response: responses(SettingsView, 401, 402),
        example: { response: { low_balance_threshold: 50, low_balance_email: 'ops@example.com' } },
      },
    },
    async (request) => {
      const settings = await readSettings(deps.store.read, walletOf(request).id);
      if (settings === undefined) throw errors.unauthorized();
      return {
        low_balance_threshold: settings.threshold,
        ...(settings.webhook ? { low_balance_webhook: view(settings.webhook) } : {}),
        ...(settings.email ? { low_balance_email: settings.email } : {}),
      };
    },
  );

  app.put(
    '/token/settings',
    {
      config: { meter },
      schema: {
        operationId: 'settingsUpdate',
        summary: 'Update low-balance notification settings (omitted fields keep their values, null clears)',
        tags: ['token'],
        example: {
          body: { low_balance_threshold: 50, low_balance_email: 'ops@example.com', low_balance_webhook: null },
          response: 'OK',
        },
        security: tokenAuth,
        body: SettingsUpdate,
        response: responses(okText(), 400, 401, 402, 413),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const problem = body.low_balance_webhook ? await checkWebhook(deps, body.low_balance_webhook) : null;
      if (problem !== null) throw errors.badRequest(problem);
      await updateSettings(deps, walletOf(request).id, {
        threshold: body.low_balance_threshold,
        webhook: body.low_balance_webhook,
        email: body.low_balance_email,
      });
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );
};
