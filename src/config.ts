import { join } from 'node:path';
import { parseServerSpec } from './lib/server-spec.js';
import { DEFAULT_POOL_SIZE } from './store/store.js';
import {
  allowedRangeProblem,
  domainProblem,
  hostProblem,
  postgresUrlProblem,
  senderProblem,
  smtpUrlProblem,
  trustedProxyProblem,
} from './lib/setting-rules.js';

/** Validated, frozen settings. The only module that reads process.env. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** HTTP_HEADERS_TIMEOUT_MS: a request whose head has not fully arrived by then gets 408 and its connection is closed. */
  readonly httpHeadersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the same for the whole request, body included (not the time the answer takes). */
  readonly httpRequestTimeoutMs: number;
  /** SHUTDOWN_DELAY_MS: after SIGTERM, how long /readyz says 503 while requests are still served, before the listener closes. */
  readonly shutdownDelayMs: number;
  readonly dataDir: string;
  /** `sqlite:/path/file.db` or `postgres://…`, normalised. */
  readonly databaseUrl: string;
  /** SQLite only: FULL fsyncs every group commit (survives power loss), NORMAL survives a process crash. */
  readonly sqliteSynchronous: 'FULL' | 'NORMAL';
  /** READ_CHARGES: `deferred` answers read-only calls once their charge is committed (durable within READ_CHARGE_SYNC_MS); `durable` once on disk. */
  readonly readCharges: 'deferred' | 'durable';
  /** READ_CHARGE_SYNC_MS: SQLite, the longest a committed read charge waits for the fsync that makes it durable. */
  readonly readChargeSyncMs: number;
  /** DATABASE_POOL_SIZE: PostgreSQL only, the connections each instance keeps open. */
  readonly databasePoolSize: number;
  readonly publicUrl: string;
  readonly smtpPort: number;
  readonly smtpHost: string;
  readonly mailDomain: string;
  readonly smtpTlsCert?: string;
  readonly smtpTlsKey?: string;
  readonly smtpUrl?: string;
  readonly notifyFrom: string;
  readonly trustProxy?: string;
  readonly outboundAllowCidrs: readonly string[];
  readonly outboundCaFile?: string;
  /** DNS_SERVERS: IP literals with an optional port (checked with parseServerSpec); empty means the system's resolvers. */
  readonly dnsServers: readonly string[];
  readonly aiBaseUrl?: string;
  readonly aiApiKey?: string;
  readonly aiModel?: string;
  readonly geoipDb?: string;
  readonly stripe: {
    readonly secretKey?: string;
    readonly webhookSecret?: string;
    readonly price1m?: string;
    readonly price3m?: string;
    readonly paymentLink1m?: string;
    readonly paymentLink3m?: string;
  };
  readonly adminToken?: string;
  readonly inboundSecret?: string;
  readonly logLevel: string;
  /** METRICS_TOKEN: GET /metrics wants `Authorization: Bearer <it>`; unset, /metrics is open. */
  readonly metricsToken?: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_SERVICE_NAME: traces go to this OTLP/HTTP collector; unset, no tracing at all. */
  readonly otel: { readonly endpoint?: string; readonly serviceName: string };
  /** CORS_ORIGINS: browser origins (`https://app.example`) allowed to call the API cross-origin; empty: no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** DELIVERY_RETRY_BASE_MS: the wait before a webhook's first retry (doubling for each further one, docs/reference.md#delivery-retries). */
  readonly deliveryRetryBaseMs: number;
}

export class ConfigError extends Error {
  /** `judgement` Unusable: the value is well-formed but what it names cannot be used (a database that does not answer). */
  constructor(variable: string, rule: string, judgement: 'Invalid' | 'Unusable' = 'Invalid') {
    super(`${judgement} ${variable}: ${rule}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(name, 'must be a port number from 0 to 65535');
  return Number(raw);
}

/**
 * A whole number from `min` to `max`, written in digits only (no sign, exponent or unit) and no longer than `max`
 * is; `fallback` when unset. `unit` names what it counts in the refusal.
 */
function integer(env: Env, name: string, bounds: { fallback: number; min: number; max: number; unit: string }): number {
  const raw = text(env, name);
  if (raw === undefined) return bounds.fallback;
  const value = raw.length <= String(bounds.max).length && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= bounds.min && value <= bounds.max))
    throw new ConfigError(name, `must be an integer from ${bounds.min} to ${bounds.max} (${bounds.unit})`);
  return value;
}

/** Bounds of the HTTP timeouts: below 100 ms no real client gets a request through; an hour is no limit at all. */
const TIMEOUT_MIN_MS = 100;
const TIMEOUT_MAX_MS = 3_600_000;

function milliseconds(env: Env, name: string, fallback: number): number {
  return integer(env, name, { fallback, min: TIMEOUT_MIN_MS, max: TIMEOUT_MAX_MS, unit: 'milliseconds' });
}

function httpTimeouts(env: Env): { httpHeadersTimeoutMs: number; httpRequestTimeoutMs: number } {
  const httpRequestTimeoutMs = milliseconds(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000);
  // Node refuses a head timeout longer than the whole request's: left unset, it is 10 s or the request's, if shorter.
  const httpHeadersTimeoutMs = milliseconds(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, httpRequestTimeoutMs));
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs)
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_MS',
      `must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs} ms)`,
    );
  return { httpHeadersTimeoutMs, httpRequestTimeoutMs };
}

/** Default 3 s: load balancers probing /readyz every second or two notice before the listener goes. */
function shutdownDelay(env: Env): number {
  return integer(env, 'SHUTDOWN_DELAY_MS', { fallback: 3000, min: 0, max: 300_000, unit: 'milliseconds' });
}

/** Default 30 s; a small base makes retries testable and benchable without waiting minutes. */
function deliveryRetryBase(env: Env): number {
  return integer(env, 'DELIVERY_RETRY_BASE_MS', { fallback: 30_000, min: 1, max: 3_600_000, unit: 'milliseconds' });
}

function list(env: Env, name: string): string[] {
  return (text(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function httpUrl(env: Env, name: string, fallback?: string): string | undefined {
  const raw = text(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(name, 'must be an absolute http(s) URL');
  return raw.replace(/\/+$/, '');
}

/**
 * Where links point (docs, recharge, attachments): a base that paths are appended to, so no query or fragment, and
 * no user or password (the startup line prints it).
 */
function publicUrl(env: Env, httpPort: number): string {
  const base = httpUrl(env, 'PUBLIC_URL', `http://localhost:${httpPort}`) as string;
  const url = new URL(base);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError('PUBLIC_URL', 'must not carry a user or password');
  if (url.search !== '' || url.hash !== '' || base.includes('?') || base.includes('#'))
    throw new ConfigError('PUBLIC_URL', 'must not have a query or fragment: links are made by appending paths');
  return base;
}

/** Exact origins only (scheme, host, optional port): a browser sends exactly that, lower-cased, in `Origin`. */
function corsOrigins(env: Env): string[] {
  return list(env, 'CORS_ORIGINS').map((raw) => {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      raw.replace(/\/$/, '').toLowerCase() !== url.origin
    ) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `"${raw}" is not an origin like https://app.example.com (scheme, host, optional port; no path, no wildcard)`,
      );
    }
    return url.origin;
  });
}

/**
 * A secret setting: unset when empty, but refused when it is only white space (read as unset, it would leave the
 * operator API off, /metrics open or the relay unguarded while the operator believes it set).
 */
function secret(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw !== undefined && raw !== '' && raw.trim() === '')
    throw new ConfigError(name, 'is only white space: give the secret, or leave it empty to turn it off');
  return text(env, name);
}

function metricsToken(env: Env): string | undefined {
  const token = secret(env, 'METRICS_TOKEN');
  if (token !== undefined && token.length < 16)
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  return token;
}

/** A value that breaks its rule (a `problem` function of lib/setting-rules) stops the start, named. */
function checked(
  name: string,
  value: string | undefined,
  problem: (value: string) => string | undefined,
): string | undefined {
  const broken = value === undefined ? undefined : problem(value);
  if (broken !== undefined) throw new ConfigError(name, broken);
  return value;
}

function checkedList(env: Env, name: string, problem: (entry: string) => string | undefined): string[] {
  const entries = list(env, name);
  for (const entry of entries) checked(name, entry, problem);
  return entries;
}

/** Fastify splits the value at commas itself; blank entries (a trailing comma) would reach it as addresses. */
function trustProxy(env: Env): string | undefined {
  const entries = checkedList(env, 'TRUST_PROXY', trustedProxyProblem);
  return entries.length === 0 ? undefined : entries.join(',');
}

function databaseUrl(env: Env, dataDir: string): string {
  const raw = text(env, 'DATABASE_URL');
  if (raw === undefined) return `sqlite:${join(dataDir, 'coinop.db')}`;
  if (/^postgres(ql)?:\/\//.test(raw)) return checked('DATABASE_URL', raw, postgresUrlProblem) as string;
  // An in-memory database would be one per connection, and gone at exit: the service keeps its data in a file.
  if (/^sqlite:(file:)?:memory:/.test(raw) || /[?&]mode=memory\b/.test(raw))
    throw new ConfigError('DATABASE_URL', 'must name an SQLite file, not an in-memory database');
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return raw;
  throw new ConfigError('DATABASE_URL', 'must start with postgres:// or sqlite:');
}

function sqliteSynchronous(env: Env): 'FULL' | 'NORMAL' {
  const raw = (text(env, 'SQLITE_SYNCHRONOUS') ?? 'FULL').toUpperCase();
  if (raw !== 'FULL' && raw !== 'NORMAL') throw new ConfigError('SQLITE_SYNCHRONOUS', 'must be FULL or NORMAL');
  return raw;
}

function readCharges(env: Env): 'deferred' | 'durable' {
  const raw = (text(env, 'READ_CHARGES') ?? 'deferred').toLowerCase();
  if (raw !== 'deferred' && raw !== 'durable') throw new ConfigError('READ_CHARGES', 'must be deferred or durable');
  return raw;
}

/** Default 10 ms: what a power cut can cost is that much of read charges; 1 s at most keeps it a few credits. */
function readChargeSyncMs(env: Env): number {
  return integer(env, 'READ_CHARGE_SYNC_MS', { fallback: 10, min: 1, max: 1000, unit: 'milliseconds' });
}

/** Default 20; PostgreSQL allows 100 connections by default, which leaves room for several instances and psql. */
function databasePoolSize(env: Env): number {
  return integer(env, 'DATABASE_POOL_SIZE', { fallback: DEFAULT_POOL_SIZE, min: 1, max: 1000, unit: 'connections' });
}

export function loadConfig(env: Env = process.env): Config {
  const httpPort = port(env, 'PORT', 8080);
  const dataDir = text(env, 'DATA_DIR') ?? './data';
  const mailDomain = checked('MAIL_DOMAIN', text(env, 'MAIL_DOMAIN'), domainProblem) ?? 'localhost';
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const tlsCert = text(env, 'SMTP_TLS_CERT');
  const tlsKey = text(env, 'SMTP_TLS_KEY');
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    throw new ConfigError(
      tlsCert === undefined ? 'SMTP_TLS_CERT' : 'SMTP_TLS_KEY',
      'SMTP_TLS_CERT and SMTP_TLS_KEY must be set together',
    );
  }
  const adminToken = secret(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16)
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  const dnsServers = list(env, 'DNS_SERVERS');
  for (const server of dnsServers) {
    // One parser for server addresses (the DNS feature's); here only IP literals: a name would need a resolver to find the resolver.
    if (parseServerSpec(server)?.isIp !== true) throw new ConfigError('DNS_SERVERS', `"${server}" is not ip[:port]`);
  }
  const config: Config = {
    port: httpPort,
    host: checked('HOST', text(env, 'HOST'), hostProblem) ?? '0.0.0.0',
    ...httpTimeouts(env),
    shutdownDelayMs: shutdownDelay(env),
    dataDir,
    databaseUrl: databaseUrl(env, dataDir),
    sqliteSynchronous: sqliteSynchronous(env),
    readCharges: readCharges(env),
    readChargeSyncMs: readChargeSyncMs(env),
    databasePoolSize: databasePoolSize(env),
    publicUrl: publicUrl(env, httpPort),
    smtpPort: port(env, 'SMTP_PORT', 2525),
    smtpHost: checked('SMTP_HOST', text(env, 'SMTP_HOST'), hostProblem) ?? '0.0.0.0',
    mailDomain: mailDomain.toLowerCase(),
    smtpTlsCert: tlsCert,
    smtpTlsKey: tlsKey,
    smtpUrl: checked('SMTP_URL', text(env, 'SMTP_URL'), smtpUrlProblem),
    notifyFrom: checked('NOTIFY_FROM', text(env, 'NOTIFY_FROM'), senderProblem) ?? `coinop@${mailDomain}`,
    trustProxy: trustProxy(env),
    outboundAllowCidrs: checkedList(env, 'OUTBOUND_ALLOW_CIDRS', allowedRangeProblem),
    outboundCaFile: text(env, 'OUTBOUND_CA_FILE'),
    dnsServers,
    aiBaseUrl: httpUrl(env, 'AI_BASE_URL'),
    aiApiKey: text(env, 'AI_API_KEY'),
    aiModel: text(env, 'AI_MODEL'),
    geoipDb: text(env, 'GEOIP_DB'),
    stripe: Object.freeze({
      secretKey: text(env, 'STRIPE_SECRET_KEY'),
      webhookSecret: text(env, 'STRIPE_WEBHOOK_SECRET'),
      price1m: text(env, 'STRIPE_PRICE_1M'),
      price3m: text(env, 'STRIPE_PRICE_3M'),
      paymentLink1m: httpUrl(env, 'STRIPE_PAYMENT_LINK_1M'),
      paymentLink3m: httpUrl(env, 'STRIPE_PAYMENT_LINK_3M'),
    }),
    adminToken,
    inboundSecret: secret(env, 'INBOUND_SECRET'),
    logLevel,
    metricsToken: metricsToken(env),
    otel: Object.freeze({
      endpoint: httpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
      serviceName: text(env, 'OTEL_SERVICE_NAME') ?? 'coinop',
    }),
    corsOrigins: corsOrigins(env),
    deliveryRetryBaseMs: deliveryRetryBase(env),
  };
  return Object.freeze(config);
}
