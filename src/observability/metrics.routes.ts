import type { FastifyPluginAsync } from 'fastify';
import { errors } from '../errors.js';
import { secretGate } from '../http/guess-throttle.js';
import type { Clock } from '../lib/time.js';
import { RateBuckets } from '../lib/rate-buckets.js';
import type { BucketRule } from '../lib/rate-buckets.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * Scrapes one client may make while /metrics is open (no METRICS_TOKEN): 10 a second, bursts of 60. A scrape renders
 * every series (~1–2.5 ms of the event loop, bench/RESULTS.md), so an open endpoint without a limit would let any
 * caller take the service from every wallet for free; a scraper takes one every 15 s or so.
 */
export const OPEN_SCRAPES: BucketRule = { perMinute: 600, burst: 60, maxKeys: 10_000 };

/**
 * GET /metrics: Prometheus text for the operator's scraper. Free and unmetered, hidden from the public
 * OpenAPI description. With METRICS_TOKEN set it wants `Authorization: Bearer <METRICS_TOKEN>` (else 401);
 * unset, it is open (docs/reference.md#metrics-access-log-tracing: bind it to a private network or set the token), and
 * each client's scrapes are limited (OPEN_SCRAPES). Wrong tokens are throttled per client.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: ServiceMetrics; token?: string; clock: Clock }> = async (
  app,
  { metrics, token, clock },
) => {
  const isMetricsToken = token === undefined ? undefined : secretGate(clock, 'metrics token', token);
  const openScrapes = token === undefined ? new RateBuckets<string>(clock, OPEN_SCRAPES) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (openScrapes !== undefined) {
      const wait = openScrapes.take(request.client.key);
      if (wait > 0) throw errors.tooManyRequests(wait / 1000);
    }
    if (isMetricsToken !== undefined) {
      const header = request.headers.authorization;
      // The scheme's name ignores case (RFC 9110, 11.1): `bearer` is `Bearer`.
      const given = typeof header === 'string' ? /^bearer +(.*)$/is.exec(header)?.[1]?.trim() : undefined;
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
