import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import type { Clock } from './lib/time.js';
import type { Readiness } from './lib/readiness.js';
import type { Ledger } from './ledger/ledger.js';
import type { Outbound } from './outbound/outbound-client.js';
import type { Mailer } from './outbound/mailer.js';
import type { Pools } from './outbound/pools.js';
import type { ServiceMetrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';

/**
 * The effects the core (http, ledger, deliveries, jobs …) works with, declared in the core: its modules take the
 * few of these they use (`Pick<CorePorts, …>`). deps.ts builds them, with the features' own effects beside them
 * (the DNS lookup, geolocation, summaries), which the core never names.
 */
export interface CorePorts {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: Store;
  /** Wallets and the call log: every charge, refund, credit and log row goes through it (src/ledger/). */
  readonly ledger: Ledger;
  /** The only way out to the network over HTTP(S). */
  readonly outbound: Outbound;
  /** Outbound e-mail (SMTP_URL, From NOTIFY_FROM); `configured` is false when SMTP_URL is unset. */
  readonly mailer: Mailer;
  /** Started and not draining: what GET /readyz reports (service.ts moves it). */
  readonly readiness: Readiness;
  /** This instance's Prometheus metrics (GET /metrics); the parts that count hold what they count into. */
  readonly metrics: ServiceMetrics;
  /** OpenTelemetry spans, when OTEL_EXPORTER_OTLP_ENDPOINT is set (store, outbound and dns are then wrapped in it). */
  readonly tracing?: Tracing;
  /** The shared pools of outbound and costly work, each shared fairly between wallets (src/outbound/pools.ts). */
  readonly pools: Pools;
}
