import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PLAIN_TEXT } from './schemas.js';
import { documentOperations } from './openapi-operations.js';
import { llmsTxt } from './llms-txt.js';

/**
 * The CSP of `/docs`: its own assets only. Not swagger-ui's default, whose `upgrade-insecure-requests` makes a
 * browser fetch every asset over https when the page came over plain http from any host but localhost: a blank page.
 * The style hash is the one `<style>` swagger-ui inserts (test/integration/http/docs-browser.test.ts names a new one).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
].join('; ');

/** The document as JSON and the llms.txt written from it, each made once (every route is declared by then). */
export interface OpenApiDocuments {
  json(): string;
  llms(): string;
}

function openApiDocuments(app: FastifyInstance): OpenApiDocuments {
  let json: string | undefined;
  let llms: string | undefined;
  return {
    json: () => (json ??= JSON.stringify(app.swagger())),
    llms: () => (llms ??= llmsTxt(app.swagger() as Parameters<typeof llmsTxt>[0])),
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `/openapi.json` is generated from the same schemas that validate requests; `/docs` renders it from local assets.
 * swagger-ui's `/docs/json` (what the page reads) would serialise the ~110 KB document again on every request, 0.5–1 ms
 * of the event loop for a free call without a token: it answers with the string `/openapi.json` serves.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<OpenApiDocuments> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'coinop',
        description:
          'Credit-metered utility API: key-value store, webhooks, DNS lookups, URL metadata, caller IP. Paid calls answer with `x-cost` and `x-balance`; errors are plain text.',
        version,
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      // Relative: the document is right behind any proxy or host name, as the landing page is.
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          TokenAuth: { type: 'apiKey', in: 'header', name: 'x-token' },
          AdminAuth: { type: 'apiKey', in: 'header', name: 'x-admin-token' },
        },
      },
    },
    ...documentOperations(),
  });
  const documents = openApiDocuments(app);
  app.addHook('onRoute', (route) => {
    // swagger-ui's own GET (and its HEAD), not the 405 answering other methods there (method-not-allowed.ts).
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url === '/docs/json' && (methods.includes('GET') || methods.includes('HEAD')))
      route.handler = async (_request, reply) => reply.type(JSON_TYPE).send(documents.json());
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  return documents;
}

/**
 * The document as JSON and the llms.txt, served from memory. They are made when the server starts listening, with the
 * YAML form `/docs/yaml` serves: made by the first request instead, that request held the event loop ~35 ms for the
 * document and ~95 ms for its YAML (measured on a slow host), free and without a token; served from memory, each is a
 * write. An app that never listens (tests injecting requests) makes them on first use.
 */
export function registerOpenApiDocument(app: FastifyInstance, documents: OpenApiDocuments): void {
  app.addHook('onListen', async () => {
    documents.json();
    documents.llms();
    app.swagger({ yaml: true });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(documents.json()),
  );
  app.get('/llms.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(PLAIN_TEXT).send(documents.llms()),
  );
}

/**
 * `GET /` is not an API route: it sends a browser to the console, and tells a reader of the body (curl) where the
 * API is described, in plain text like every other non-JSON answer. Relative paths, so it is right behind any proxy
 * or host name.
 */
export function registerLandingPage(app: FastifyInstance, version: string): void {
  const text = [
    `coinop ${version}: a credit-metered utility API (key-value store, webhooks, DNS lookups, URL metadata, caller IP).`,
    'Console: /console/ . Documentation: /docs (OpenAPI document: /openapi.json; for AI agents: /llms.txt)',
    'A token: POST /token with the form body token=new; then send it as the x-token header.',
    '',
  ].join('\n');
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(302).header('location', 'console/').type(PLAIN_TEXT).send(text),
  );
}
