import type { FastifyRequest } from 'fastify';
import { PLAIN_TEXT } from './schemas.js';

/**
 * The body a route's errors are answered with, declared on the route (`config: { errorBody }`):
 * the service-wide plain text (the default), or `{"success": false, "error": "…"}`, the failure
 * shape the contract gives url-to-metadata (docs/contract.md#url-metadata). Only the body changes; status, headers, charging and logging
 * stay with the shared error handling for every route.
 */
export type ErrorBodyShape = 'plain-text' | 'json-failure';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorBody?: ErrorBodyShape;
  }
}

const ERROR_BODIES: Readonly<
  Record<ErrorBodyShape, (message: string) => { readonly type: string; readonly text: string }>
> = {
  'plain-text': (message) => ({ type: PLAIN_TEXT, text: message }),
  'json-failure': (message) => ({
    type: 'application/json; charset=utf-8',
    text: JSON.stringify({ success: false, error: message }),
  }),
};

/** Authentication and metering answer alike on every route (docs/contract.md#errors: `Unauthorized`, `Insufficient credits`). */
const SERVICE_WIDE_STATUSES: ReadonlySet<number> = new Set([401, 402]);

/** The content type and serialised body of an error `message` answered with `statusCode` on this request's route. */
export function errorBody(
  request: FastifyRequest,
  statusCode: number,
  message: string,
): { readonly type: string; readonly text: string } {
  const shape = SERVICE_WIDE_STATUSES.has(statusCode)
    ? 'plain-text'
    : (request.routeOptions.config.errorBody ?? 'plain-text');
  return ERROR_BODIES[shape](message);
}
