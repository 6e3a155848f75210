import type { FastifyRequest } from 'fastify';

/** The route label of requests no route matched (404s, and those refused before routing): never the raw URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The route pattern a request matched (`/kv/:bucket/:key`), for metrics, the access log and spans. */
export function routeLabel(request: FastifyRequest): string {
  return request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
}
