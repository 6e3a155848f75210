import { ConfigError, loadConfig } from './config.js';
import { endLog } from './observability/log-destination.js';
import { createService } from './service.js';
import type { Service } from './service.js';
import { checkSettingFiles } from './startup-checks.js';

/**
 * A start that cannot go on ends with one line on stderr: a setting (or what it names) at fault exits 2,
 * naming it; a system refusal (a port another process holds) exits 1 with its message; anything else is a
 * bug and keeps its stack.
 */
function refuseStart(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`coinop: ${error.message}\n`);
    process.exit(2);
  }
  const systemError = error instanceof Error && typeof (error as { syscall?: unknown }).syscall === 'string';
  const detail =
    error instanceof Error ? (systemError ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(`coinop: failed to start: ${detail}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let service: Service;
  try {
    const config = loadConfig();
    checkSettingFiles(config);
    // Some settings (GEOIP_DB, the database, the listening addresses) can only be judged by opening what they name: createService and start do.
    service = await createService(config);
    await service.start();
  } catch (error) {
    refuseStart(error);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.deps.logger.info({ signal }, 'stopping: draining requests');
    await service.stop();
    // Every log line written before exiting, in order (an exit's synchronous flush could pass a write in flight).
    await endLog(service.deps.logger);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch(refuseStart);
