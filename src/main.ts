import { ConfigError, loadConfig } from './config.js';
import { createService } from './service.js';
import type { Service } from './service.js';

async function main(): Promise<void> {
  let service: Service;
  try {
    // Some settings (GEOIP_DB) can only be judged by opening what they name: createService does.
    service = await createService(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`coinop: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await service.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.deps.logger.info({ signal }, 'stopping: draining requests');
    await service.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`coinop: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
