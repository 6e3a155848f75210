import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What a browser script on an allowed origin may read of an answer besides the CORS-safelisted headers. */
export const EXPOSED_HEADERS = 'x-cost, x-balance, x-request-id, retry-after';
/** Every method a route answers; a preflight is answered the same for every path (the actual request gets its 404 or 405). */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/**
 * The request headers the API reads: `x-token` for every paid call, `content-type` for bodies, `x-request-id` to
 * correlate, and what MCP clients send to `/mcp` (`mcp-protocol-version`, `mcp-session-id`; browsers' agents too).
 */
const ALLOWED_HEADERS =
  'Authorization, Content-Type, X-Token, X-Admin-Token, X-Request-Id, Mcp-Protocol-Version, Mcp-Session-Id';
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** Sets the CORS headers of an actual (not preflight) answer on `reply`; a no-op without CORS_ORIGINS. */
export type CorsHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

const noCors: CorsHeaders = () => undefined;

export interface Cors {
  /** Sets the headers of an actual answer; for answers given outside the hooks (the router's `frameworkErrors`). */
  readonly headers: CorsHeaders;
  /** Adds the root hook; before any route is added. */
  register(app: FastifyInstance): void;
}

/**
 * CORS for the configured origins only (`CORS_ORIGINS`, exact matches), as one root hook rather than a plugin:
 * a preflight is answered there with 204 before any route runs (so it is free, unmetered, and not a 405), and every
 * other answer, errors included, carries the headers set before routing. Without origins nothing is registered.
 */
export function corsFor(origins: readonly string[]): Cors {
  if (origins.length === 0) return { headers: noCors, register: () => undefined };
  const allowed = new Set(origins);
  const headers: CorsHeaders = (request, reply) => {
    // The answer depends on Origin whatever it is: a shared cache must not hand one origin's answer to another.
    void reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    void reply.header('access-control-allow-origin', origin);
    void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  };
  const register = (app: FastifyInstance): void => {
    app.addHook('onRequest', (request, reply, done) => {
      headers(request, reply);
      const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
      if (!preflight || !reply.hasHeader('access-control-allow-origin')) return done();
      // A preflight carries no token and no body: answered here, free; the browser then sends the real request.
      void reply
        .removeHeader('access-control-expose-headers')
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .code(204)
        .send();
    });
  };
  return { headers, register };
}
