import type { FastifyInstance, HTTPMethods } from 'fastify';
import { errors } from '../errors.js';

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Known paths answer other methods with 405 and an `allow` header (unknown paths get 404).
 * Call `track` before any route is registered and `register` after all of them.
 */
export function methodNotAllowed(app: FastifyInstance): { register(): void } {
  const methodsByPath = new Map<string, Set<string>>();
  let closed = false;
  app.addHook('onRoute', (route) => {
    if (closed) return;
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  return {
    register() {
      void app.register(async (instance) => {
        closed = true;
        // The answer is 405 whatever the body: never parse it (the stream is discarded with the response).
        instance.removeAllContentTypeParsers();
        instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
        for (const [url, allowed] of methodsByPath) {
          if (url.includes('*') || url.startsWith('/docs')) continue; // the docs UI keeps its own routing
          const missing = METHODS.filter((method) => !allowed.has(method));
          if (missing.length === 0) continue;
          const allow = METHODS.filter((method) => allowed.has(method));
          instance.route({
            method: missing,
            url,
            schema: { hide: true },
            handler: async () => {
              throw errors.methodNotAllowed(allow);
            },
          });
        }
      });
    },
  };
}
