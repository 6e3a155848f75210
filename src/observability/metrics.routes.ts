import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../errors.js';
import { secretGate } from '../http/guess-throttle.js';
import type { Clock } from '../lib/time.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * GET /metrics: Prometheus text for the operator's scraper. Free and unmetered, hidden from the public
 * OpenAPI description. With METRICS_TOKEN set it wants `Authorization: Bearer <METRICS_TOKEN>` (else 401);
 * unset, it is open (docs/reference.md#metrics-access-log-tracing: bind it to a private network or set the token). Wrong tokens are throttled per client.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: ServiceMetrics; token?: string; clock: Clock }> = async (
  app,
  { metrics, token, clock },
) => {
  const isMetricsToken = token === undefined ? undefined : secretGate(clock, 'metrics token', token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (isMetricsToken !== undefined) {
      const header = request.headers.authorization;
      const given =
        typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
      if (!isMetricsToken(request, given)) {
        void reply.header('www-authenticate', 'Bearer');
        throw errors.unauthorized();
      }
    }
    const text = await metrics.scrape();
    void reply.type(metrics.contentType);
    return text;
  });
};
