import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { startSweepers } from './jobs/sweepers.js';

/** How long SIGTERM waits for requests in flight. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`coinop: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const deps = createDeps(config);
  await deps.store.migrate();
  const app = await buildApp(deps);
  const stopSweepers = startSweepers(deps, randomUUID());
  await app.listen({ port: config.port, host: config.host });
  deps.logger.info({ store: deps.store.dialect }, 'coinop started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, 'stopping: draining requests');
    stopSweepers();
    // Connections that go idle after their last answer are closed as they do (keep-alive clients would
    // otherwise hold the close open); whatever is still busy after the grace period is cut.
    const idleCloser = setInterval(() => app.server.closeIdleConnections(), 50);
    const hardStop = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await app.close(); // waits for in-flight requests
    clearInterval(idleCloser);
    clearTimeout(hardStop);
    await deps.logs.flush();
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
