import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CorePorts } from '../ports.js';
import { ApiError, errors } from '../errors.js';
import { answerStoreAway, chargeFailedRequest, clientGone } from './metering.js';
import type { RefusalCostHeaders } from './metering.js';
import { errorBody } from './error-body.js';
import { PLAIN_TEXT } from './schemas.js';
import { isStoreUnavailable } from '../store/store-errors.js';

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
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return errors.badRequest('Invalid JSON body');
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  // Never the framework's own text (it may repeat the request): the catalogue's answer for the status, else the status text.
  if (status === 403) return errors.forbidden();
  if (status === 404) return errors.notFound();
  if (status === 413) return errors.payloadTooLarge();
  return new ApiError(status, STATUS_CODES[status] ?? 'Bad Request');
}

/** The answer, heard by nobody, to a request whose connection the stop cut. */
const CUT = errors.storeUnavailable();

/** The store is away: metering builds that answer (status, body and headers), here it is sent. */
async function sendStoreAway(request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<void> {
  request.log.warn({ err: error }, 'store unavailable');
  await reply.send(answerStoreAway(request, reply));
}

async function sendError(
  deps: Pick<CorePorts, 'ledger'>,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): Promise<void> {
  let answered = error;
  // A request that failed before it was charged (e.g. an unparsable body) still pays, as client errors do (docs/contract.md#metering).
  try {
    await chargeFailedRequest(deps, request, answered.statusCode);
  } catch (chargeError) {
    if (isStoreUnavailable(chargeError)) return sendStoreAway(request, reply, chargeError);
    if (!(chargeError instanceof ApiError)) request.log.error({ err: chargeError }, 'charging a failed request failed');
    answered = chargeError instanceof ApiError ? chargeError : errors.internal();
  }
  if (request.meter !== undefined) request.meter.error = answered.body;
  const body = errorBody(request, answered.statusCode, answered.body);
  await reply.code(answered.statusCode).headers(answered.headers).type(body.type).send(body.text);
}

/** One error handler: our error, a framework error, the store being away (503), anything else (logged, 500). */
export function registerErrorHandling(
  app: FastifyInstance,
  deps: Pick<CorePorts, 'ledger' | 'readiness'>,
  refusalCost?: RefusalCostHeaders,
): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // Its connection was cut by the stop (docs/operations.md#stopping), most often mid-body: the fault is ours, as a
    // 5xx's is, so nothing is charged, and nobody hears the answer. The store, closing next, is not asked.
    if (deps.readiness.connectionsCut && clientGone(request)) return sendError(deps, request, reply, CUT);
    if (error instanceof ApiError) return sendError(deps, request, reply, error);
    const framework = fromFramework(error);
    if (framework !== undefined) return sendError(deps, request, reply, framework);
    if (isStoreUnavailable(error)) return sendStoreAway(request, reply, error);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(deps, request, reply, errors.internal());
  });

  app.setNotFoundHandler(async (request, reply) => {
    await refusalCost?.(request, reply);
    const notFound = errors.notFound();
    await reply.code(404).type(PLAIN_TEXT).send(notFound.body);
  });
}
