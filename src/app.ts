import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController } from 'fastify';
import type { ConnectionError, FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import { SERVICE_VERSION } from './deps.js';
import { errors } from './errors.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerMetering } from './http/metering.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { registerOpenApi, registerOpenApiDocument } from './http/openapi.js';
import { registerValidation } from './http/validation.js';
import { healthRoutes } from './features/health/health.routes.js';
import { tokenRoutes } from './features/tokens/tokens.routes.js';
import { logRoutes } from './features/logs/logs.routes.js';
import { settingsRoutes } from './features/settings/settings.routes.js';
import { kvRoutes } from './features/kv/kv.routes.js';
import { webhookRoutes } from './features/webhooks/webhooks.routes.js';
import { manageRoutes } from './features/manage/manage.routes.js';
import { dnsRoutes } from './features/dns/dns.routes.js';
import { mailRoutes } from './features/mail/mail.routes.js';
import type { InboundMail } from './features/mail/inbound.service.js';
import { metadataRoutes } from './features/metadata/metadata.routes.js';
import { myIpRoutes } from './features/myip/myip.routes.js';
import { billingRoutes } from './features/billing/billing.routes.js';
import { PLAIN_TEXT } from './http/schemas.js';

/** Bodies larger than this are refused with 413 before they are read (routes may set lower limits). */
const BODY_LIMIT = 256 * 1024;

/** How often Node looks for requests past their time limits: a quarter of the shorter one, at most every second. */
function timeoutCheckInterval(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(25, Math.floor(headersTimeoutMs / 4)));
}

/**
 * Answers what Node refuses before any route runs (a request past its time limit, a malformed or oversized
 * head) in plain text with the status text as body, as every other error; Fastify's default answers JSON.
 */
function answerClientError(logger: FastifyBaseLogger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = STATUS_CODES[status] ?? 'Bad Request';
    logger.debug({ err: error }, 'client error');
    // As Node itself does: nothing is written once a response has begun on this socket (it would corrupt it).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (inFlight === undefined || inFlight === null || !inFlight.headersSent)) {
      socket.write(
        `HTTP/1.1 ${status} ${body}\r\nConnection: close\r\nContent-Type: ${PLAIN_TEXT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/** `inbound`: the process's one inbound-mail pipeline, shared with the SMTP listener (service.ts); needed when INBOUND_SECRET is set. */
export async function buildApp(deps: Deps, inbound?: InboundMail): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Per-request lines would be noise at our volume; metering records every call in the wallet's log.
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger: nothing logs request ids, and it is an allocation per request.
    childLoggerFactory: (logger) => logger,
    trustProxy: deps.config.trustProxy ?? false,
    bodyLimit: BODY_LIMIT,
    // Long percent-encoded keys must reach the handler (and get a 400), not fall through to 404.
    routerOptions: { maxParamLength: 1000 },
    // Errors the router raises before any route runs (e.g. a malformed percent-encoding).
    frameworkErrors: (error, _request, anyReply) => {
      const reply = anyReply as FastifyReply;
      const answer = error.code === 'FST_ERR_BAD_URL' ? errors.badRequest('Invalid path: malformed percent-encoding') : errors.badRequest(error.message);
      void reply.code(answer.statusCode).type(PLAIN_TEXT).send(answer.body);
    },
    // Slow clients must not hold connections (slowloris): the head within HTTP_HEADERS_TIMEOUT_MS, the whole
    // request within HTTP_REQUEST_TIMEOUT_MS, else 408 and the connection is closed. The time a handler takes
    // to answer is not counted (DNS lookups and deliveries may take longer); idle keep-alive stays Fastify's 72 s.
    requestTimeout: deps.config.httpRequestTimeoutMs,
    http: {
      headersTimeout: deps.config.httpHeadersTimeoutMs,
      // Node's default looks every 30 s, which would let a 10 s limit run to 40 s.
      connectionsCheckingInterval: timeoutCheckInterval(deps.config.httpHeadersTimeoutMs),
    },
    clientErrorHandler: answerClientError(deps.logger as FastifyBaseLogger),
    // A request that reaches a closing instance on a kept-alive connection is still answered (README "Stopping").
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerValidation(app);
  registerErrorHandling(app, deps);
  registerMetering(app, deps);
  const notAllowed = methodNotAllowed(app);
  await registerOpenApi(app, SERVICE_VERSION);

  // The one explicit list of features.
  await app.register(healthRoutes, { deps });
  await app.register(tokenRoutes, { deps });
  await app.register(logRoutes, { deps });
  await app.register(settingsRoutes, { deps });
  await app.register(kvRoutes, { deps });
  await app.register(webhookRoutes, { deps });
  await app.register(dnsRoutes, { deps });
  await app.register(mailRoutes, { deps, inbound });
  await app.register(metadataRoutes, { deps });
  await app.register(myIpRoutes, { deps });
  await app.register(billingRoutes, { deps });
  if (deps.config.adminToken !== undefined) await app.register(manageRoutes, { deps, adminToken: deps.config.adminToken });

  registerOpenApiDocument(app);
  notAllowed.register();
  await app.ready();
  return app;
}
