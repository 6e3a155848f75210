import { AsyncLocalStorage } from 'node:async_hooks';
import type { Attributes, Span, SpanKind, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Sql, Store } from '../store/store.js';
import type { Outbound } from '../outbound/outbound-client.js';
import { routeLabel } from './route-label.js';

type Api = typeof import('@opentelemetry/api');

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<it>/v1/traces` as OTLP/HTTP JSON. */
  readonly endpoint: string;
  readonly serviceName: string;
  readonly serviceVersion: string;
}

interface Loaded {
  readonly api: Api;
  readonly tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The OpenTelemetry SDK, loaded only when tracing is on: a service without it never imports these packages. */
async function loadSdk(settings: TracingSettings): Promise<Loaded> {
  const [api, { TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.version': settings.serviceVersion,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return {
    api,
    tracer: provider.getTracer('coinop', settings.serviceVersion),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** How one method of a wrapped object becomes a span. */
interface SpanOf<A extends unknown[], R> {
  readonly name: string;
  readonly attributes?: (...args: A) => Attributes;
  readonly result?: (result: Awaited<R>) => Attributes;
}

type MethodSpans<T> = { [K in keyof T]?: T[K] extends (...args: infer A) => infer R ? SpanOf<A, R> : never };

/** The host and port of a URL, for a span: never its path or query, which may carry a receiver's secret. */
function serverAddress(url: string): Attributes {
  try {
    const parsed = new URL(url);
    return {
      'server.address': parsed.hostname,
      'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
    };
  } catch {
    return {};
  }
}

/**
 * Spans for requests, store calls, deliveries, fetches and DNS lookups, exported over OTLP/HTTP. Made only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing here runs and no OpenTelemetry package is loaded.
 * Which span is the parent is kept in an AsyncLocalStorage of this instance's own, not in OpenTelemetry's
 * global context manager, so instances in one process (tests) share nothing. Spans begun before the SDK has
 * loaded (`ready`) are skipped.
 */
export class Tracing {
  readonly ready: Promise<void>;
  private loaded: Loaded | undefined;
  private readonly current = new AsyncLocalStorage<Span>();
  private readonly requestSpans = new WeakMap<FastifyRequest, Span>();

  constructor(settings: TracingSettings) {
    this.ready = loadSdk(settings).then((loaded) => {
      this.loaded = loaded;
    });
  }

  /** Runs `work` in a span, a child of the span in progress (a request's, a delivery's), its parent for what it calls. */
  async run<T>(
    name: string,
    attributes: Attributes,
    work: () => Promise<T>,
    describe?: (result: T) => Attributes,
  ): Promise<T> {
    const loaded = this.loaded;
    if (loaded === undefined) return work();
    const parent = this.current.getStore();
    const context =
      parent === undefined ? loaded.api.ROOT_CONTEXT : loaded.api.trace.setSpan(loaded.api.ROOT_CONTEXT, parent);
    const span = loaded.tracer.startSpan(name, { kind: loaded.api.SpanKind.CLIENT, attributes }, context);
    try {
      const result = await this.current.run(span, work);
      if (describe !== undefined) span.setAttributes(describe(result));
      return result;
    } catch (error) {
      span.setStatus({
        code: loaded.api.SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  }

  /** The same object, each named method of which runs in a span. */
  wrap<T extends object>(target: T, spans: MethodSpans<T>): T {
    return new Proxy(target, {
      get: (object, property) => {
        const value: unknown = Reflect.get(object, property);
        const span = (spans as Record<string | symbol, SpanOf<unknown[], unknown> | undefined>)[property];
        if (span === undefined || typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) =>
          this.run(span.name, span.attributes?.(...args) ?? {}, () => method.apply(object, args), span.result);
      },
    });
  }

  /** The store with a span per call: each statement read, each write or unit (its text when it is one statement). */
  store(store: Store): Store {
    const system = { 'db.system.name': store.dialect === 'postgres' ? 'postgresql' : 'sqlite' };
    const statement = (sql: unknown) => ({ ...system, 'db.query.text': typeof sql === 'string' ? sql : '' });
    const read = this.wrap<Sql>(store.read, {
      all: { name: 'db read', attributes: statement },
      get: { name: 'db read', attributes: statement },
      run: { name: 'db read', attributes: statement },
    });
    const wrapped = this.wrap(store, {
      write: { name: 'db write unit', attributes: () => system },
      writeOne: { name: 'db write', attributes: statement },
      writeDeferred: { name: 'db write', attributes: statement },
      insertRows: { name: 'db insert rows', attributes: () => system },
      executeMany: { name: 'db write many', attributes: () => system },
    });
    return new Proxy(wrapped, {
      get: (object, property): unknown => (property === 'read' ? read : Reflect.get(object, property)),
    });
  }

  /** Every way out over HTTP(S) with a span per call: fetches (URL metadata, AI) and webhook deliveries. */
  outbound(outbound: Outbound): Outbound {
    return this.wrap(outbound, {
      request: {
        name: 'fetch',
        attributes: (request) => ({ ...serverAddress(request.url), 'http.request.method': request.method ?? 'GET' }),
      },
      deliverJson: {
        name: 'webhook delivery',
        attributes: serverAddress,
        result: (result) => ({ 'http.response.status_code': result.status ?? 0, 'coinop.delivered': result.ok }),
      },
    });
  }

  /** A request's span begins (Fastify's log controller calls this): a root, the parent of what runs for the request. */
  requestStarted(request: FastifyRequest): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    const route = routeLabel(request);
    const kind: SpanKind = loaded.api.SpanKind.SERVER;
    const span = loaded.tracer.startSpan(`${request.method} ${route}`, {
      kind,
      attributes: { 'http.request.method': request.method, 'http.route': route, 'coinop.request_id': request.id },
    });
    this.requestSpans.set(request, span);
    this.current.enterWith(span);
  }

  requestEnded(request: FastifyRequest, status: number): void {
    const span = this.requestSpans.get(request);
    if (span === undefined || this.loaded === undefined) return;
    this.requestSpans.delete(request);
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: this.loaded.api.SpanStatusCode.ERROR });
    span.end();
  }

  /**
   * A request's body is read in the socket's callbacks, where the span entered at its start is not current:
   * it is entered again before validation, so the charge and the handler run under it.
   */
  register(app: FastifyInstance): void {
    app.addHook('preValidation', (request, _reply, done) => {
      const span = this.requestSpans.get(request);
      if (span !== undefined) this.current.enterWith(span);
      done();
    });
  }

  /** Sends every span ended so far. */
  async flush(): Promise<void> {
    await this.loaded?.flush();
  }

  async close(): Promise<void> {
    await this.loaded?.shutdown();
  }
}
