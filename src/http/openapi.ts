import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** `/openapi.json` is generated from the same schemas that validate requests; `/docs` renders it from local assets. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'coinop',
        description:
          'Credit-metered utility API: key-value store, webhooks, DNS lookups, URL metadata, caller IP. Paid calls answer with `x-cost` and `x-balance`; errors are plain text.',
        version,
      },
      components: {
        securitySchemes: {
          TokenAuth: { type: 'apiKey', in: 'header', name: 'x-token' },
          AdminAuth: { type: 'apiKey', in: 'header', name: 'x-admin-token' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
}

export function registerOpenApiDocument(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
