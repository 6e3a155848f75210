import pino from 'pino';
import { Readiness } from './lib/readiness.js';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import { openStore } from './store/open-store.js';
import type { Clock } from './lib/time.js';
import { systemClock } from './lib/time.js';
import { Ledger } from './ledger/ledger.js';
import { readFileSync } from 'node:fs';
import { createOutbound, trustedRoots } from './outbound/outbound-client.js';
import type { Outbound } from './outbound/outbound-client.js';
import { createNameLookup } from './outbound/name-resolution.js';
import { createMailer } from './outbound/mailer.js';
import type { Mailer } from './outbound/mailer.js';
import type Stripe from 'stripe';
import { requireOnDemand } from './lib/require-on-demand.js';
import { createGeoLookup } from './features/myip/geo.js';
import type { GeoLookup } from './features/myip/geo.js';
import { createSummarizer } from './features/metadata/ai/create-summarizer.js';
import type { Summarizer } from './features/metadata/ai/summarizer.js';
import { createAddressPolicy } from './outbound/address-policy.js';
import type { AddressPolicy } from './outbound/address-policy.js';
import { createDnsLookup } from './features/dns/dns-lookup.js';
import type { DnsLookup } from './features/dns/dns-lookup.js';
import { resolverAddresses } from './outbound/dns/server-address.js';
import { createDnsClient } from './outbound/dns/wire-client.js';
import { ServiceMetrics } from './observability/metrics.js';
import { Tracing } from './observability/tracing.js';
import { stdoutDestination } from './observability/log-destination.js';
import { wideFileMessage } from './store/sqlite/private-files.js';
import { createPools, poolSizesFor } from './outbound/pools.js';
import type { CorePorts } from './ports.js';

export const SERVICE_VERSION = '0.1.0';

/** Every effect the service has, in one typed object passed to routes and workers: the core's (src/ports.ts) and the features'. */
export interface Deps extends CorePorts {
  /** POST /dns-lookup: queries on the wire to DNS_SERVERS (or the system's), guarded by the same policy and roots as `outbound`. */
  readonly dns: DnsLookup;
  /** IP geolocation from a MaxMind-format database (GEOIP_DB, else the bundled one). */
  readonly geo: GeoLookup;
  /** URL-metadata summaries: the AI_* provider through `outbound`, else the built-in extractive summarizer. */
  readonly summarizer: Summarizer;
  /** Stripe API client; present when STRIPE_SECRET_KEY is set. */
  readonly stripe?: Stripe;
  /** The one address guard of every way out (OUTBOUND_ALLOW_CIDRS), for checks made before a call is charged. */
  readonly addressPolicy: AddressPolicy;
}

export interface DepsOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly store?: Store;
  readonly outbound?: Outbound;
  /** e.g. a lookup that fails as a test tells it. */
  readonly dns?: DnsLookup;
  readonly mailer?: Mailer;
  readonly geo?: GeoLookup;
  readonly summarizer?: Summarizer;
  /** e.g. a client pointed at a local fake of the Stripe API. */
  readonly stripe?: Stripe;
}

export function createLogger(config: Config): Logger {
  // Tokens travel in x-token: never let a request logger print them.
  return pino(
    {
      level: config.logLevel,
      redact: {
        // err.rawPacket: Node's parse errors carry the request's head as sent (http/before-routing.ts logs none).
        paths: ['req.headers["x-token"]', 'req.headers["x-admin-token"]', 'req.headers.authorization', 'err.rawPacket'],
        censor: '***',
      },
    },
    // stdout, written asynchronously, the access lines in batches (observability/log-destination.ts): a request's
    // line is neither a blocking write nor a write of its own. Written out on a graceful stop and at exit.
    stdoutDestination(),
  );
}

export function createDeps(config: Config, overrides: DepsOverrides = {}): Deps {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const metrics = new ServiceMetrics();
  const { endpoint, serviceName } = config.otel;
  const tracing =
    endpoint === undefined ? undefined : new Tracing({ endpoint, serviceName, serviceVersion: SERVICE_VERSION });
  const openedStore =
    overrides.store ??
    openStore(config.databaseUrl, {
      sqliteSynchronous: config.sqliteSynchronous,
      readChargeSyncMs: config.readChargeSyncMs,
      poolSize: config.databasePoolSize,
      metrics,
      onWideFile: (file) => logger.warn({ file: file.path }, wideFileMessage(file)),
    });
  const store = tracing?.store(openedStore) ?? openedStore;
  const pools = createPools(poolSizesFor(store.dialect));
  const ledger = new Ledger(store, { clock, logger, metrics, readCharges: config.readCharges });
  // One address guard and one set of trusted roots (OUTBOUND_ALLOW_CIDRS, OUTBOUND_CA_FILE) for every way out:
  // HTTP(S) through `outbound`, DNS servers and TLS inspection through `dns`.
  const policy = createAddressPolicy(config.outboundAllowCidrs);
  const secureContext = trustedRoots(
    config.outboundCaFile === undefined ? undefined : readFileSync(config.outboundCaFile, 'utf8'),
  );
  const openedOutbound =
    overrides.outbound ??
    createOutbound({
      policy,
      secureContext,
      lookup: createNameLookup(config.dnsServers),
      userAgent: `coinop-webhook/${SERVICE_VERSION}`,
    });
  const outbound = tracing?.outbound(openedOutbound) ?? openedOutbound;
  const openedDns =
    overrides.dns ??
    createDnsLookup({
      client: createDnsClient(resolverAddresses(config.dnsServers)),
      policy,
      clock,
      tlsContext: secureContext,
      queryPool: pools.dnsQueries,
    });
  const dns = tracing?.wrap(openedDns, { lookup: { name: 'dns lookup' } }) ?? openedDns;
  const mailer = overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.notifyFrom });
  const geo = overrides.geo ?? createGeoLookup({ configuredPath: config.geoipDb, logger });
  const summarizer = overrides.summarizer ?? createSummarizer(config, outbound, logger);
  const stripe =
    overrides.stripe ??
    (config.stripe.secretKey === undefined
      ? undefined
      : new (requireOnDemand<typeof Stripe>('stripe'))(config.stripe.secretKey, {
          maxNetworkRetries: 1,
          timeout: 10_000,
        }));
  return {
    config,
    logger,
    clock,
    store,
    ledger,
    outbound,
    dns,
    mailer,
    geo,
    summarizer,
    stripe,
    addressPolicy: policy,
    readiness: new Readiness(),
    metrics,
    tracing,
    pools,
  };
}
