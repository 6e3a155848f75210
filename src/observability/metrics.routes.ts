import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../errors.js';
import { sha256Hex } from '../lib/hash.js';
import type { ServiceMetrics } from './metrics.js';

/** Compared as digests: equal lengths, so the comparison takes the same time whatever was sent. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}

/**
 * GET /metrics: Prometheus text for the operator's scraper. Free and unmetered, hidden from the public
 * OpenAPI description. With METRICS_TOKEN set it wants `Authorization: Bearer <METRICS_TOKEN>` (else 401);
 * unset, it is open (README: bind it to a private network or set the token).
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: ServiceMetrics; token?: string }> = async (app, { metrics, token }) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined) {
      const header = request.headers.authorization;
      const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
      if (given === undefined || !sameSecret(given, token)) {
        void reply.header('www-authenticate', 'Bearer');
        throw errors.unauthorized();
      }
    }
    const text = await metrics.scrape();
    void reply.type(metrics.contentType);
    return text;
  });
};
