import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import { openStore } from './store/open-store.js';
import type { Clock } from './lib/time.js';
import { systemClock } from './lib/time.js';
import { WalletDirectory } from './features/tokens/wallet-directory.js';
import { LogBuffer } from './features/logs/log-buffer.js';

/** Every effect the service has, in one typed object passed to routes and workers. */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: Store;
  readonly wallets: WalletDirectory;
  readonly logs: LogBuffer;
}

export interface DepsOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly store?: Store;
}

export function createLogger(config: Config): Logger {
  // Tokens travel in x-token: never let a request logger print them.
  return pino({ level: config.logLevel, redact: { paths: ['req.headers["x-token"]', 'req.headers["x-admin-token"]', 'req.headers.authorization'], censor: '***' } });
}

export function createDeps(config: Config, overrides: DepsOverrides = {}): Deps {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? openStore(config.databaseUrl);
  const wallets = new WalletDirectory(store, clock, (error) => logger.error({ err: error }, 'recording last use failed'));
  const logs = new LogBuffer(store, (error, dropped) => logger.error({ err: error, dropped }, 'writing call logs failed'));
  return { config, logger, clock, store, wallets, logs };
}
