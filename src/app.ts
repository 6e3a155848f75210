import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import { SERVICE_VERSION } from './deps.js';
import { registerErrorHandling } from './http/error-handler.js';
import { refusalMetering, registerMetering } from './http/metering.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { registerLandingPage, registerOpenApi, registerOpenApiDocument } from './http/openapi.js';
import {
  answerClientError,
  refuseEncodedBodies,
  answerRouterError,
  answerUnusualRequests,
  MAX_PARAM_LENGTH,
  requireHost,
} from './http/before-routing.js';
import { corsFor } from './http/cors.js';
import { registerClientIdentity, trustedProxies } from './http/client-identity.js';
import { registerValidation } from './http/validation.js';
import { healthRoutes } from './features/health/health.routes.js';
import { tokenRoutes } from './features/tokens/tokens.routes.js';
import { logRoutes } from './features/logs/logs.routes.js';
import { settingsRoutes } from './features/settings/settings.routes.js';
import { kvRoutes } from './features/kv/kv.routes.js';
import { webhookRoutes } from './features/webhooks/webhooks.routes.js';
import { deliveryRoutes } from './features/deliveries/deliveries.routes.js';
import { consoleFiles, registerConsole } from './features/console/index.js';
import { manageRoutes } from './features/manage/manage.routes.js';
import { dnsRoutes } from './features/dns/dns.routes.js';
import { mailRoutes } from './features/mail/mail.routes.js';
import type { InboundMail } from './features/mail/inbound.service.js';
import { metadataRoutes } from './features/metadata/metadata.routes.js';
import { myIpRoutes } from './features/myip/myip.routes.js';
import { billingRoutes } from './features/billing/billing.routes.js';
import { offeredRechargeAmounts } from './features/billing/billing.service.js';
import { mcpRoutes } from './features/mcp/mcp.routes.js';
import { RequestObserver } from './observability/request-observer.js';
import { requestIds } from './observability/request-id.js';
import { metricsRoutes } from './observability/metrics.routes.js';

/** Bodies larger than this are refused with 413 before they are read (routes may set lower limits). */
const BODY_LIMIT = 256 * 1024;

/** How often Node looks for requests past their time limits: a quarter of the shorter one, at most every second. */
function timeoutCheckInterval(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(25, Math.floor(headersTimeoutMs / 4)));
}

/** `inbound`: the process's one inbound-mail pipeline, shared with the SMTP listener (service.ts); needed when INBOUND_SECRET is set. */
/** `receivesMail`: whether e-mail can reach this instance (mailbox webhooks are refused otherwise); default: `inbound` exists, as in service.ts. */
export async function buildApp(
  deps: Deps,
  inbound?: InboundMail,
  options: { readonly receivesMail?: boolean } = {},
): Promise<FastifyInstance> {
  await deps.tracing?.ready;
  const receivesMail = options.receivesMail ?? inbound !== undefined;
  const observer = new RequestObserver(deps.logger, deps.metrics, deps.tracing);
  // Refusals before routing charge nothing but show the balance to a valid token on a metered path (http/metering.ts).
  const refusals = refusalMetering(deps);
  const cors = corsFor(deps.config.corsOrigins);
  const routerError = answerRouterError(cors.headers, refusals.headers);
  // TRUST_PROXY, compiled once: Fastify, the client identity every limit keys on and the request ids read it alike.
  const trusted = trustedProxies(deps.config.trustProxy);
  // One id generator for every answer, those written before any request exists included.
  const newRequestId = requestIds(trusted);
  // Answers given beside Fastify (Node's parser refusing a head, CONNECT) get their access line and metrics too.
  const refusedBeforeRequest = (reqId: string, status: number, method?: string): void =>
    observer.refusedBeforeRequest(reqId, status, method);
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One access-log line per request, HTTP metrics and the x-request-id header (observability/request-observer.ts).
    logController: observer,
    genReqId: newRequestId,
    // No per-request child logger (an allocation per request): the access-log line carries the request id itself.
    childLoggerFactory: (logger) => logger,
    trustProxy: trusted ?? false,
    bodyLimit: BODY_LIMIT,
    // Long keys must reach the handler (and get its 400, as a short bad key does), not a refusal before routing.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route runs (e.g. a malformed percent-encoding).
    frameworkErrors: (error, request, anyReply) => {
      const reply = anyReply as FastifyReply;
      observer.follow(request, reply);
      routerError(error, request, reply);
    },
    // Slow clients must not hold connections (slowloris): the head within HTTP_HEADERS_TIMEOUT_MS, the whole
    // request within HTTP_REQUEST_TIMEOUT_MS, else 408 and the connection is closed. The time a handler takes
    // to answer is not counted (DNS lookups and deliveries may take longer); idle keep-alive stays Fastify's 72 s.
    requestTimeout: deps.config.httpRequestTimeoutMs,
    http: {
      headersTimeout: deps.config.httpHeadersTimeoutMs,
      // Node's default looks every 30 s, which would let a 10 s limit run to 40 s.
      connectionsCheckingInterval: timeoutCheckInterval(deps.config.httpHeadersTimeoutMs),
      // Node's 400 for a missing Host has no body; requireHost answers it in plain text.
      requireHostHeader: false,
    },
    clientErrorHandler: answerClientError(deps.logger as FastifyBaseLogger, newRequestId, refusedBeforeRequest),
    // A request that reaches a closing instance on a kept-alive connection is still answered (docs/operations.md#stopping).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();
  // JSON routes take application/json only: a JSON text sent as text/plain (fetch's default for a string body) is
  // refused as every other type is (`Unsupported content type`), not read as a string "not a JSON object". Routes
  // that read text (KV values, the token form, mail, Stripe) add their own parsers in their own scope.
  app.removeContentTypeParser('text/plain');

  answerUnusualRequests(app.server, newRequestId, refusedBeforeRequest);
  registerClientIdentity(app, trusted);
  cors.register(app);
  requireHost(app, refusals.headers);
  refusals.track(app);
  deps.tracing?.register(app);
  registerValidation(app);
  registerErrorHandling(app, deps, refusals.headers);
  registerMetering(app, deps, (request, reply) => observer.requestAbandoned(request, reply));
  refuseEncodedBodies(app);
  const notAllowed = methodNotAllowed(app, refusals.headers);
  const openApiDocuments = await registerOpenApi(app, SERVICE_VERSION);

  // The one explicit list of features.
  await app.register(healthRoutes, { deps });
  await app.register(tokenRoutes, { deps });
  await app.register(logRoutes, { deps });
  await app.register(settingsRoutes, { deps });
  await app.register(kvRoutes, { deps });
  await app.register(webhookRoutes, { deps, receivesMail });
  await app.register(deliveryRoutes, { deps });
  await app.register(dnsRoutes, { deps });
  await app.register(mailRoutes, { deps, inbound });
  await app.register(metadataRoutes, { deps });
  await app.register(myIpRoutes, { deps });
  await app.register(billingRoutes, { deps });
  await app.register(mcpRoutes, { deps });
  if (deps.config.adminToken !== undefined)
    await app.register(manageRoutes, { deps, adminToken: deps.config.adminToken });
  await app.register(metricsRoutes, { metrics: deps.metrics, token: deps.config.metricsToken, clock: deps.clock });
  registerConsole(app, consoleFiles(), { receivesMail, rechargeAmounts: offeredRechargeAmounts(deps) });

  registerOpenApiDocument(app, openApiDocuments);
  registerLandingPage(app, SERVICE_VERSION);
  notAllowed.register();
  await app.ready();
  return app;
}
