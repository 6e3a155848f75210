import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type {} from '../http/metering.js'; // request.meter
import { AccessLineFormat } from './access-line.js';
import type { AccessFields } from './access-line.js';
import { accessLineWriter } from './log-destination.js';
import type { ServiceMetrics } from './metrics.js';
import { routeLabel, UNMATCHED_ROUTE } from './route-label.js';
import type { Tracing } from './tracing.js';

/**
 * Fastify calls its log controller at the start and at the end of every request, so the request id
 * header, the HTTP metrics and the access log ride on those two calls: no hook of our own, no child
 * logger. Fastify's own per-request lines stay off. The access log is one `info` line per request
 * with the route pattern, never the URL (its query) or a header, so no token can reach it: a line pino
 * would write, made by concatenation (access-line.ts) and batched on the logger's own output
 * (log-destination.ts), so a request costs well under a microsecond for it (bench/RESULTS.md). With
 * tracing on, the request's span begins and ends on the same two calls.
 */
export class RequestObserver extends LogController {
  private readonly accessLine: AccessLineFormat;
  private readonly writeAccessLine: (line: string) => void;
  /** Requests whose line was written for a client gone before the answer (requestAbandoned). */
  private readonly abandoned = new WeakSet<FastifyRequest>();
  /** Filled again for each request's line: no object per request. */
  private readonly fields: AccessFields = {
    reqId: '',
    method: '',
    route: '',
    status: 0,
    ms: 0,
    cost: undefined,
    wallet: undefined,
  };

  constructor(
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics,
    private readonly tracing?: Tracing,
  ) {
    super({ disableRequestLogging: true });
    this.accessLine = new AccessLineFormat(logger);
    this.writeAccessLine = accessLineWriter(logger);
  }

  /** Every answer carries the request's id (see request-id.ts), errors and 404s included. */
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('x-request-id', request.id);
    this.tracing?.requestStarted(request);
  }

  /**
   * A request whose client was gone before its answer: Fastify makes no completion call for it (metering tells of a
   * metered one), yet it has its line and metrics, once, with the status it was answered with.
   */
  requestAbandoned(request: FastifyRequest, reply: FastifyReply): void {
    if (this.abandoned.has(request)) return;
    this.requestCompleted(null, request, reply);
    this.abandoned.add(request);
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Written already, should Fastify complete an abandoned request after all (its write failing with an error).
    if (this.abandoned.has(request)) return;
    const route = routeLabel(request);
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    this.tracing?.requestEnded(request, status);
    this.metrics.http(request.method, route, status).observe(ms / 1000);
    if (!this.logger.isLevelEnabled('info')) return;
    const cost = reply.getHeader('x-cost');
    const { fields } = this;
    fields.reqId = request.id;
    fields.method = request.method;
    fields.route = route;
    fields.status = status;
    fields.ms = Math.round(ms * 100) / 100;
    fields.cost = cost === undefined ? undefined : Number(cost);
    // Enough to tell wallets apart in the log; the token, or its whole hash, never appears.
    fields.wallet = request.meter?.wallet.hash.slice(0, 8);
    this.writeAccessLine(this.accessLine.format(fields));
  }

  /**
   * An answer given beside Fastify (408 for a head or body past its time, 431, 400 for an unparsable head, 405 to
   * CONNECT): its access line and metrics, with the unmatched route, no cost, and the method if Node read one.
   */
  refusedBeforeRequest(reqId: string, status: number, method = ''): void {
    this.metrics.http(method, UNMATCHED_ROUTE, status).observe(0);
    if (!this.logger.isLevelEnabled('info')) return;
    const { fields } = this;
    fields.reqId = reqId;
    fields.method = method;
    fields.route = UNMATCHED_ROUTE;
    fields.status = status;
    fields.ms = 0;
    fields.cost = undefined;
    fields.wallet = undefined;
    this.writeAccessLine(this.accessLine.format(fields));
  }

  /** Answers given by `frameworkErrors` (refused before routing) get no completion call from Fastify: they are followed here. */
  follow(request: FastifyRequest, reply: FastifyReply): void {
    reply.raw.once('finish', () => this.requestCompleted(null, request, reply));
  }
}
