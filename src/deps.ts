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
import { createMailer } from './outbound/mailer.js';
import type { Mailer } from './outbound/mailer.js';
import Stripe from 'stripe';
import { createGeoLookup } from './features/myip/geo.js';
import type { GeoLookup } from './features/myip/geo.js';
import { createSummarizer } from './features/metadata/ai/create-summarizer.js';
import type { Summarizer } from './features/metadata/ai/summarizer.js';

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
  /** Outbound e-mail (SMTP_URL, From NOTIFY_FROM); `configured` is false when SMTP_URL is unset. */
  readonly mailer: Mailer;
  /** IP geolocation from a MaxMind-format database (GEOIP_DB, else the bundled one). */
  readonly geo: GeoLookup;
  /** URL-metadata summaries: the AI_* provider through `outbound`, else the built-in extractive summarizer. */
  readonly summarizer: Summarizer;
  /** Stripe API client; present when STRIPE_SECRET_KEY is set. */
  readonly stripe?: Stripe;
}

export interface DepsOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly store?: Store;
  readonly outbound?: Outbound;
  readonly mailer?: Mailer;
  readonly geo?: GeoLookup;
  readonly summarizer?: Summarizer;
  /** e.g. a client pointed at a local fake of the Stripe API. */
  readonly stripe?: Stripe;
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
  const mailer = overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.notifyFrom });
  const charger = new WalletCharger(store);
  const geo = overrides.geo ?? createGeoLookup({ configuredPath: config.geoipDb, logger });
  const summarizer = overrides.summarizer ?? createSummarizer(config, outbound, logger);
  const stripe =
    overrides.stripe ??
    (config.stripe.secretKey === undefined ? undefined : new Stripe(config.stripe.secretKey, { maxNetworkRetries: 1, timeout: 10_000 }));
  return { config, logger, clock, store, wallets, charger, logs, outbound, mailer, geo, summarizer, stripe };
}
