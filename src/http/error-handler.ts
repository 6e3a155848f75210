import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { ApiError, errors } from '../errors.js';
import { chargeFailedRequest } from './metering.js';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

/**
 * The body a route's errors are answered with, declared on the route (`config: { errorBody }`):
 * the service-wide plain text (the default), or `{"success": false, "error": "…"}`, the failure
 * shape SPEC gives url-to-metadata. Only the body changes; status, headers, charging and logging
 * stay here for every route.
 */
export type ErrorBodyShape = 'plain-text' | 'json-failure';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorBody?: ErrorBodyShape;
  }
}

const ERROR_BODIES: Readonly<Record<ErrorBodyShape, { readonly type: string; readonly body: (message: string) => unknown }>> = {
  'plain-text': { type: PLAIN_TEXT, body: (message) => message },
  'json-failure': { type: 'application/json; charset=utf-8', body: (message) => ({ success: false, error: message }) },
};

/** Authentication and metering answer alike on every route (SPEC: typical bodies `Unauthorized`, `Insufficient credits`). */
const SERVICE_WIDE_STATUSES: ReadonlySet<number> = new Set([401, 402]);

function bodyShapeOf(request: FastifyRequest, statusCode: number): ErrorBodyShape {
  if (SERVICE_WIDE_STATUSES.has(statusCode)) return 'plain-text';
  return request.routeOptions.config.errorBody ?? 'plain-text';
}

/** Framework errors that are the client's fault, mapped to our catalogue. */
function fromFramework(error: FastifyError): ApiError | undefined {
  if (error.validation) return errors.badRequest(error.message);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.badRequest('Unsupported content type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.badRequest('Invalid JSON body: empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.badRequest('Invalid JSON body');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return errors.badRequest('Invalid JSON body');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, error.message);
  return undefined;
}

async function sendError(deps: Deps, request: FastifyRequest, reply: FastifyReply, error: ApiError): Promise<void> {
  let answered = error;
  // A request that failed before it was charged (e.g. an unparsable body) still pays, as SPEC says client errors do.
  try {
    await chargeFailedRequest(deps, request, answered.statusCode);
  } catch (chargeError) {
    if (!(chargeError instanceof ApiError)) request.log.error({ err: chargeError }, 'charging a failed request failed');
    answered = chargeError instanceof ApiError ? chargeError : errors.internal();
  }
  if (request.meter !== undefined) request.meter.error = answered.body;
  const shape = ERROR_BODIES[bodyShapeOf(request, answered.statusCode)];
  await reply.code(answered.statusCode).headers(answered.headers).type(shape.type).send(shape.body(answered.body));
}

/** One error handler, three branches: our error, a framework error, anything else (logged, 500). */
export function registerErrorHandling(app: FastifyInstance, deps: Deps): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return sendError(deps, request, reply, error);
    const framework = fromFramework(error);
    if (framework !== undefined) return sendError(deps, request, reply, framework);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(deps, request, reply, errors.internal());
  });

  app.setNotFoundHandler(async (_request, reply) => {
    const notFound = errors.notFound();
    await reply.code(404).type(PLAIN_TEXT).send(notFound.body);
  });
}
