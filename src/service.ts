import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readiness } from './lib/readiness.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createDeps } from './deps.js';
import type { Deps, DepsOverrides } from './deps.js';
import { buildApp } from './app.js';
import { lifecycle, together } from './lib/lifecycle.js';
import type { Component, StopProblem } from './lib/lifecycle.js';
import { startRetention } from './retention.js';
import { InboundMail } from './features/mail/inbound.service.js';
import { SpoolFolder } from './features/mail/spool.js';
import { startSmtpListener } from './features/mail/smtp-listener.js';
import type { SmtpListener, SmtpListenerOptions } from './features/mail/smtp-listener.js';
import { startScheduler } from './features/scheduler/scheduler.js';
import { startLowBalanceNotifier } from './features/settings/low-balance-notifier.js';
import { startRetryWorker } from './delivery-core/index.js';
import { findDeliveryTarget } from './features/webhooks/index.js';
import { listenNaming, migrateAtStart } from './startup-checks.js';
import { startupSummary } from './startup-log.js';

/** How long a stop waits for HTTP requests in flight before cutting their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ServiceOptions {
  /** Dependencies to replace (tests). */
  readonly deps?: DepsOverrides;
  /** Listener settings beyond the config; a `port` here (0: ephemeral) turns the listener on even when SMTP_PORT is 0. */
  readonly smtp?: Omit<SmtpListenerOptions, 'inbound'>;
}

export interface Service {
  readonly deps: Deps;
  /** Opens everything in order: store (migrated), spool clean-up, inbound mail, SMTP, workers, HTTP. */
  start(): Promise<void>;
  /** Stops what was started, in reverse order; never throws (each stop's failure is logged). */
  stop(): Promise<void>;
  /** The ports listened on, once started (smtp null when the listener is off). */
  ports(): { readonly http: number; readonly smtp: number | null };
}

/**
 * The composition root: builds every component of the process as { start, stop } and runs them
 * through one lifecycle, so the stop order is the start order reversed rather than a hand-kept list.
 * Throws ConfigError when a setting can only be judged by opening what it names (GEOIP_DB).
 */
export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const deps = createDeps(config, options.deps);
  await deps.geo.ready();
  const { logger } = deps;
  const instanceId = randomUUID();
  const report: StopProblem = ({ component, error, timedOut }) =>
    logger.error({ component, err: error }, timedOut === true ? 'stop took too long: moving on' : 'stop failed');

  const smtpPort = options.smtp?.port ?? (config.smtpPort === 0 ? undefined : config.smtpPort);
  // One inbound-mail pipeline (spool, parse slots, outbox recovery) for the SMTP listener and the relay route.
  const inboundWanted = smtpPort !== undefined || config.inboundSecret !== undefined;
  let inbound: InboundMail | undefined;
  let smtp: SmtpListener | null = null;
  let app: FastifyInstance | undefined;

  const components: Component[] = [
    // Started first (the SDK loaded before anything makes spans), stopped last: the spans of the stop are sent too.
    { name: 'tracing', start: async () => deps.tracing?.ready, stop: async () => deps.tracing?.close() },
    { name: 'store', start: () => migrateAtStart(deps.store, config, logger), stop: () => deps.store.close() },
    { name: 'outbound', start: () => undefined, stop: () => deps.outbound.close() },
    { name: 'mailer', start: () => undefined, stop: () => Promise.resolve(deps.mailer.close()) },
    // Stopped after everything that logs calls (requests, workers, deliveries), before the store closes.
    { name: 'call log', start: () => undefined, stop: () => deps.ledger.flush() },
    {
      name: 'inbound mail',
      async start() {
        // Messages a crashed process was receiving were never answered 250 (their senders retry): their bytes go.
        const leftovers = await SpoolFolder.removeLeftovers();
        if (leftovers.length > 0)
          logger.info({ folders: leftovers }, 'removed spool folders left by a stopped process');
        if (inboundWanted) inbound = await InboundMail.create(deps);
      },
      stop: async () => inbound?.close(),
    },
    {
      name: 'smtp listener',
      async start() {
        if (inbound === undefined || smtpPort === undefined) return;
        const listener = inbound;
        smtp = await listenNaming(
          () => startSmtpListener(deps, { ...options.smtp, port: smtpPort, inbound: listener }),
          {
            hostSetting: 'SMTP_HOST',
            portSetting: 'SMTP_PORT',
            host: options.smtp?.host ?? config.smtpHost,
            port: smtpPort,
          },
        );
      },
      stop: async () => smtp?.close(),
    },
    // Workers claim nothing new once stopping; those in flight finish (deliveries time out after 10 s) while
    // requests drain, and their writes land before the call log is flushed and the store closes.
    together(
      'workers and http',
      [
        worker('sweepers', () => startRetention(deps, instanceId)),
        worker('scheduler', () => startScheduler(deps, instanceId)),
        worker('low-balance notifier', () => startLowBalanceNotifier(deps, instanceId)),
        worker('delivery retries', () =>
          startRetryWorker(deps, instanceId, {
            findTarget: (walletId, webhookId) => findDeliveryTarget(deps.store.read, walletId, webhookId),
          }),
        ),
        {
          name: 'http',
          async start() {
            app = await buildApp(deps, inbound);
            const server = app;
            await listenNaming(() => server.listen({ port: config.port, host: config.host }), {
              hostSetting: 'HOST',
              portSetting: 'PORT',
              host: config.host,
              port: config.port,
            });
          },
          stop: async () => (app === undefined ? undefined : drain(app, deps.readiness, config.shutdownDelayMs)),
          stopTimeoutMs: config.shutdownDelayMs + SHUTDOWN_GRACE_MS + 5000,
        },
      ],
      report,
    ),
  ];
  const running = lifecycle(components, report);
  const ports = () => ({ http: (app?.server.address() as AddressInfo | null)?.port ?? 0, smtp: smtp?.port ?? null });

  return {
    deps,
    async start() {
      await running.start();
      deps.readiness.markStarted();
      const summary = startupSummary(config, ports(), config.inboundSecret !== undefined);
      for (const warning of summary.warnings) logger.warn(warning);
      logger.info({ store: deps.store.dialect, ...summary.fields }, 'coinop started');
    },
    async stop() {
      await running.stop();
      logger.info('stopped');
    },
    ports,
  };
}

/** A background poller as a component: started by `begin`, stopped once its pass in progress has finished. */
function worker(name: string, begin: () => () => Promise<void>): Component {
  let stop: (() => Promise<void>) | undefined;
  return {
    name,
    start: () => {
      stop = begin();
    },
    stop: async () => stop?.(),
  };
}

/**
 * Leaves the fleet, then closes the HTTP server. First, for `delayMs`: /readyz answers 503 so load balancers
 * stop sending here, while every request that still arrives is served, each answer with `Connection: close` so
 * kept-alive clients reconnect (elsewhere). Then the listener closes: requests in flight are answered, as are
 * any that still arrive on an open connection, connections that go idle are closed as they do, and whatever is
 * still busy after SHUTDOWN_GRACE_MS is cut.
 */
async function drain(app: FastifyInstance, readiness: Readiness, delayMs: number): Promise<void> {
  readiness.startDraining();
  const closeAfterAnswer = (_request: IncomingMessage, response: ServerResponse): void => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  };
  app.server.on('request', closeAfterAnswer);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const idleCloser = setInterval(() => app.server.closeIdleConnections(), 50);
  const hardStop = setTimeout(() => {
    readiness.markConnectionsCut();
    app.server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  try {
    await app.close(); // waits for in-flight requests
  } finally {
    clearInterval(idleCloser);
    clearTimeout(hardStop);
  }
}
