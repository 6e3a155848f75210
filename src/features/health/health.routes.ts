import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { okText, responses, PLAIN_TEXT } from '../../http/schemas.js';

/** Liveness (/healthz: the store answers) and readiness (/readyz: also started and not draining) for load balancers; no token. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const storeAnswers = async (): Promise<void> => {
    try {
      await deps.store.read.get('SELECT 1 AS one');
    } catch {
      throw errors.unavailable('Store unavailable');
    }
  };

  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'healthCheck',
        summary: 'Health check',
        tags: ['service'],
        response: responses(okText(), 503),
        example: { response: 'OK' },
      },
    },
    async (_request, reply) => {
      await storeAnswers();
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readinessCheck',
        summary: 'Readiness: started, not draining, store answering',
        tags: ['service'],
        response: responses(okText(), 503),
        example: { response: 'OK' },
      },
    },
    async (_request, reply) => {
      const notReady = deps.readiness.notReady;
      if (notReady !== undefined) throw errors.unavailable(notReady === 'draining' ? 'Draining' : 'Starting');
      await storeAnswers();
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );
};
