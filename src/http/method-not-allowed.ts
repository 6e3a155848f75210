import type { FastifyInstance, HTTPMethods } from 'fastify';
import { errors } from '../errors.js';
import type { RefusalCostHeaders } from './metering.js';

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Known paths answer other methods with 405 and an `allow` header (unknown paths get 404), charging nothing
 * (`refusalCost`: a valid token on a metered path still sees `x-cost: 0` and its balance).
 * Call before any route is registered, and `register` after all of them.
 */
export function methodNotAllowed(app: FastifyInstance, refusalCost: RefusalCostHeaders): { register(): void } {
  const methodsByPath = new Map<string, Set<string>>();
  let closed = false;
  app.addHook('onRoute', (route) => {
    if (closed) return;
    // `/docs` and `/docs/` are one path to the router (trailing slashes ignored): their methods are one set.
    const url = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
    const methods = methodsByPath.get(url) ?? new Set<string>();
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(method);
    methodsByPath.set(url, methods);
  });
  return {
    register() {
      void app.register(async (instance) => {
        closed = true;
        // The answer is 405 whatever the body: never parse it (the stream is discarded with the response).
        instance.removeAllContentTypeParsers();
        instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
        for (const [url, allowed] of methodsByPath) {
          if (url.includes('*')) continue; // the docs UI's static files: a method other than GET or HEAD is a 404 there
          // Every method the router knows (TRACE and QUERY too) is a 405 here; one it does not know is a 404.
          const missing = app.supportedMethods.filter((method) => !allowed.has(method)) as HTTPMethods[];
          if (missing.length === 0) continue;
          const allow = METHODS.filter((method) => allowed.has(method));
          instance.route({
            method: missing,
            url,
            schema: { hide: true },
            handler: async (request, reply) => {
              await refusalCost(request, reply);
              throw errors.methodNotAllowed(allow);
            },
          });
        }
      });
    },
  };
}
