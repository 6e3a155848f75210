import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type {
  ConnectionError,
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preParsingHookHandler,
} from 'fastify';
import { errors } from '../errors.js';
import type { ApiError } from '../errors.js';
import { withHook } from './metering.js';
import type { RefusalCostHeaders } from './metering.js';
import type { CorsHeaders } from './cors.js';
import { PLAIN_TEXT } from './schemas.js';

/**
 * The longest path parameter the router passes to a route. Node refuses a request head over 16 KiB (431) before
 * routing, so with this limit every parameter of a request Node accepts reaches its route, and a key of 10,000
 * characters is the route's 400 (and pays for it), as one of 31 is.
 */
export const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * Answers what Node refuses before any request exists (a request past its time limit, a head it cannot parse or
 * that is too large) in plain text with the status text as body, as every other error; Fastify's default answers JSON.
 * No request means no token read and no CORS: these answers carry neither cost nor CORS headers.
 */
export function answerClientError(
  logger: FastifyBaseLogger,
  newRequestId: () => string,
  answered: (reqId: string, status: number) => void,
): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = STATUS_CODES[status] ?? 'Bad Request';
    // The code and reason only: the error's rawPacket holds the request's head as sent, tokens and all.
    logger.debug({ code: error.code, reason: error.message }, 'client error');
    // As Node itself does: nothing is written once a response has begun on this socket (it would corrupt it).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (inFlight === undefined || inFlight === null || !inFlight.headersSent)) {
      const reqId = newRequestId();
      socket.write(
        `HTTP/1.1 ${status} ${body}\r\nConnection: close\r\nx-request-id: ${reqId}\r\nContent-Type: ${PLAIN_TEXT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      answered(reqId, status);
    }
    socket.destroy(error);
  };
}

/** The catalogue's answer to an error the router raises before any route runs; never the error's own text (it repeats the path). */
function routerErrorAnswer(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return errors.badRequest('Invalid path: malformed percent-encoding');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.badRequest(`Invalid path: a segment is longer than ${MAX_PARAM_LENGTH} characters`);
    default:
      return errors.badRequest('Invalid path');
  }
}

/**
 * Fastify's `frameworkErrors`: the router could not route the request. No hook has run, so the CORS and cost
 * headers are set here, as the hooks and the not-found handler set them for every other refusal.
 */
export function answerRouterError(cors: CorsHeaders, refusalCost: RefusalCostHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const answer = routerErrorAnswer(error);
    cors(request, reply);
    void refusalCost(request, reply).then(() => {
      void reply.code(answer.statusCode).type(PLAIN_TEXT).send(answer.body);
    });
  };
}

/**
 * RFC 9112 requires a 400 for an HTTP/1.1 request without Host; Node's own has no body, so Node's check is off
 * (`requireHostHeader: false`) and this hook answers it in plain text, as every refusal before routing.
 */
export function requireHost(app: FastifyInstance, refusalCost: RefusalCostHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host !== undefined || request.raw.httpVersion !== '1.1') return done();
    void refusalCost(request, reply).then(() => done(errors.badRequest('Missing Host header')));
  });
}

/**
 * A body sent compressed (`Content-Encoding: gzip`, …) is refused, 400 `Unsupported content encoding`, as a
 * content type a route does not read is: no route decodes one, and read as it is, a KV value would be stored as
 * the compressed bytes and answered `OK`. Hooked on the routes that take a body only (preParsing).
 */
export function refuseEncodedBodies(app: FastifyInstance): void {
  const refuse: preParsingHookHandler = (request, _reply, payload, done): void => {
    const encoding = request.headers['content-encoding'];
    if (encoding === undefined || encoding === '' || /^\s*identity\s*$/i.test(encoding)) return done(null, payload);
    done(errors.badRequest('Unsupported content encoding'));
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => BODY_METHODS.has(method))) return;
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- `refuse` is callback-style (it calls `done`), not async
    route.preParsing = withHook(route.preParsing, refuse);
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a CONNECT is told: this is no proxy, and these are the methods its routes answer. */
const CONNECT_ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * Requests Node would otherwise answer itself, without a body, or not at all:
 * - an `Expect` other than `100-continue` is ignored and the request answered as usual (RFC 9110 allows it), instead of
 *   Node's bodiless 417: the answer is the route's, in the contract's shape, with its CORS and cost headers;
 * - a CONNECT (Node closes the connection without a word when nobody listens) gets 405 in plain text, and the
 *   connection is closed, since it was handed over raw.
 */
export function answerUnusualRequests(
  server: Server,
  requestId: (request: IncomingMessage) => string,
  answered: (reqId: string, status: number, method: string) => void,
): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const body = errors.methodNotAllowed([]).body;
    const reqId = requestId(request);
    socket.end(
      `HTTP/1.1 405 ${body}\r\nAllow: ${CONNECT_ALLOW}\r\nConnection: close\r\nx-request-id: ${reqId}\r\nContent-Type: ${PLAIN_TEXT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    answered(reqId, 405, 'CONNECT');
  });
}
