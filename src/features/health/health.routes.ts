import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { okText, responses, PLAIN_TEXT } from '../../http/schemas.js';

/** Liveness for load balancers: checks the store answers, touches no wallet. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get('/healthz', { schema: { summary: 'Health check', tags: ['service'], response: responses(okText(), 503) } }, async (_request, reply) => {
    try {
      await deps.store.read.get('SELECT 1 AS one');
    } catch {
      throw errors.unavailable('Store unavailable');
    }
    reply.type(PLAIN_TEXT);
    return 'OK';
  });
};
