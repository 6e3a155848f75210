import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import { openStore } from './store/open-store.js';
import type { Clock } from './lib/time.js';
import { systemClock } from './lib/time.js';
import { WalletDirectory } from './features/tokens/wallet-directory.js';
import { WalletCharger } from './features/tokens/wallet-charger.js';
import { LogBuffer } from './features/logs/log-buffer.js';
import { readFileSync } from 'node:fs';
import { createOutbound } from './outbound/outbound-client.js';
import type { Outbound } from './outbound/outbound-client.js';
import { createNameLookup } from './outbound/name-resolution.js';

export const SERVICE_VERSION = '0.1.0';

/** Every effect the service has, in one typed object passed to routes and workers. */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: Store;
  readonly wallets: WalletDirectory;
  /** The hot-path charge (batched per wallet on PostgreSQL). */
  readonly charger: WalletCharger;
  readonly logs: LogBuffer;
  /** The only way out to the network over HTTP(S). */
  readonly outbound: Outbound;
}

export interface DepsOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly store?: Store;
  readonly outbound?: Outbound;
}

export function createLogger(config: Config): Logger {
  // Tokens travel in x-token: never let a request logger print them.
  return pino({ level: config.logLevel, redact: { paths: ['req.headers["x-token"]', 'req.headers["x-admin-token"]', 'req.headers.authorization'], censor: '***' } });
}

export function createDeps(config: Config, overrides: DepsOverrides = {}): Deps {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? openStore(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous });
  const wallets = new WalletDirectory(store, clock, (error) => logger.error({ err: error }, 'recording last use failed'));
  const logs = new LogBuffer(store, (error, dropped) => logger.error({ err: error, dropped }, 'writing call logs failed'));
  const outbound =
    overrides.outbound ??
    createOutbound({
      allowCidrs: config.outboundAllowCidrs,
      extraCaPem: config.outboundCaFile === undefined ? undefined : readFileSync(config.outboundCaFile, 'utf8'),
      lookup: createNameLookup(config.dnsServers),
      userAgent: `coinop-webhook/${SERVICE_VERSION}`,
    });
  const charger = new WalletCharger(store);
  return { config, logger, clock, store, wallets, charger, logs, outbound };
}
