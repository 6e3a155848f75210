import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { startSweepers } from './jobs/sweepers.js';
import { startSmtpListener } from './features/mail/smtp-listener.js';
import { InboundMail } from './features/mail/inbound.service.js';
import { SpoolFolder } from './features/mail/spool.js';
import { startScheduler } from './features/scheduler/scheduler.js';
import { startLowBalanceNotifier } from './features/settings/low-balance-notifier.js';

/** How long SIGTERM waits for requests in flight. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  let deps;
  try {
    config = loadConfig();
    // Some settings (GEOIP_DB) can only be judged by opening what they name.
    deps = createDeps(config);
    await deps.geo.ready();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`coinop: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await deps.store.migrate();
  // Messages a crashed process was receiving were never answered 250 (their senders retry): their bytes go.
  const leftovers = await SpoolFolder.removeLeftovers();
  if (leftovers.length > 0) deps.logger.info({ folders: leftovers }, 'removed spool folders left by a stopped process');
  // One inbound-mail pipeline (spool, parse slots, outbox recovery) for the SMTP listener and the relay route.
  const inbound = config.smtpPort !== 0 || config.inboundSecret !== undefined ? await InboundMail.create(deps) : undefined;
  const app = await buildApp(deps, inbound);
  const instanceId = randomUUID();
  const stopSweepers = startSweepers(deps, instanceId);
  const stopScheduler = startScheduler(deps, instanceId);
  const stopNotifier = startLowBalanceNotifier(deps, instanceId);
  await app.listen({ port: config.port, host: config.host });
  const smtp = await startSmtpListener(deps, { inbound });
  deps.logger.info({ store: deps.store.dialect }, 'coinop started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, 'stopping: draining requests');
    // No new runs or notifications are claimed from here; those in flight finish (deliveries time out
    // after 10 s) while requests drain, and their writes land before the store closes.
    const workersStopped = Promise.all([stopSweepers(), stopScheduler(), stopNotifier()]);
    // Connections that go idle after their last answer are closed as they do (keep-alive clients would
    // otherwise hold the close open); whatever is still busy after the grace period is cut.
    const idleCloser = setInterval(() => app.server.closeIdleConnections(), 50);
    const hardStop = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await app.close(); // waits for in-flight requests
    clearInterval(idleCloser);
    clearTimeout(hardStop);
    await workersStopped;
    await smtp?.close();
    await inbound?.close(); // deliveries in flight log through the buffer: close before flushing
    await deps.logs.flush();
    deps.mailer.close();
    await deps.outbound.close();
    await deps.store.close();
    deps.logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`coinop: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
