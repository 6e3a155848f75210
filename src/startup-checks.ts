import { closeSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { ConfigError } from './config.js';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import { StoreUnavailableError } from './store/store-errors.js';
import { holdSqliteInstanceLock } from './store/single-instance.js';

/**
 * What the start can only judge by opening what a setting names (files, the database, the listening
 * address). Each failure becomes a ConfigError naming the setting, so the start ends with one line, exit 2.
 */

/** Settings that name files: read and parsed before anything starts. */
export function checkSettingFiles(config: Config): void {
  if (config.outboundCaFile !== undefined) {
    const pem = readSetting('OUTBOUND_CA_FILE', config.outboundCaFile);
    if (!parses(() => new X509Certificate(pem)))
      throw new ConfigError('OUTBOUND_CA_FILE', `${config.outboundCaFile} holds no PEM certificate`);
  }
  if (config.smtpTlsCert !== undefined && config.smtpTlsKey !== undefined) {
    // PEM text or a path, as the SMTP listener takes them.
    const pemOf = (name: string, value: string) => (value.includes('-----BEGIN') ? value : readSetting(name, value));
    const cert = pemOf('SMTP_TLS_CERT', config.smtpTlsCert);
    const key = pemOf('SMTP_TLS_KEY', config.smtpTlsKey);
    if (!parses(() => new X509Certificate(cert))) throw new ConfigError('SMTP_TLS_CERT', 'is not a PEM certificate');
    if (!parses(() => createPrivateKey(key))) throw new ConfigError('SMTP_TLS_KEY', 'is not a PEM private key');
    if (!parses(() => createSecureContext({ cert, key })))
      throw new ConfigError('SMTP_TLS_KEY', 'does not belong to the certificate in SMTP_TLS_CERT');
  }
  if (config.databaseUrl.startsWith('sqlite:')) checkSqliteFile(config);
}

/** The setting that chose the SQLite file: DATABASE_URL when given, else DATA_DIR. */
function sqliteSetting(config: Config): string {
  return config.databaseUrl === `sqlite:${join(config.dataDir, 'coinop.db')}` ? 'DATA_DIR' : 'DATABASE_URL';
}

const SQLITE_HEADER = 'SQLite format 3\0';

function checkSqliteFile(config: Config): void {
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return;
  const setting = sqliteSetting(config);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new ConfigError(setting, `cannot create the directory ${dirname(path)} (${codeOf(error)})`);
  }
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new ConfigError(setting, `${path} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    size = 0; // not there yet: created here, as the store would
  }
  // A folder the process may not write in (a container volume owned by another user, a read-only mount).
  try {
    closeSync(openSync(path, size === 0 ? 'a' : 'r+', 0o600));
  } catch (error) {
    throw new ConfigError(setting, `cannot write ${path} (${codeOf(error)})`, 'Unusable');
  }
  if (!holdSqliteInstanceLock(path))
    throw new ConfigError(
      setting,
      `${path} is served by another coinop process: SQLite takes one instance (several need PostgreSQL)`,
      'Unusable',
    );
  if (size === 0) return;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ConfigError(setting, `cannot read ${path} (${codeOf(error)})`);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) throw new ConfigError(setting, `${path} is not an SQLite database`);
}

function readSetting(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(name, `cannot read ${path} (${codeOf(error)})`);
  }
}

function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** Where the data is, for the log and for messages: never the whole URL (it may carry a password). */
export function databaseLocation(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) return `SQLite ${resolvePath(databaseUrl.slice('sqlite:'.length))}`;
  const url = new URL(databaseUrl);
  const host = url.hostname === '' ? (url.searchParams.get('host') ?? 'localhost') : url.hostname;
  return `PostgreSQL ${host}:${url.port === '' ? '5432' : url.port}/${decodeURIComponent(url.pathname.slice(1))}`;
}

/** How long a start waits for a database that does not answer (it may be starting beside us) before it gives up. */
export const STORE_START_WAIT_MS = 10_000;
const STORE_RETRY_MS = 1000;

/**
 * PostgreSQL refusals that only the settings can fix: authentication (class 28), no such database, no usable schema
 * (a `search_path` naming none that exists, or none the role may use: 3F000), no permission.
 */
const SETTING_SQLSTATES = new Set(['3D000', '3F000', '42501']);

/**
 * Migrates the store at start. A database that does not answer is tried again for STORE_START_WAIT_MS (a
 * supervisor that restarts at once would otherwise give up on a database that is still starting), then the
 * start ends naming DATABASE_URL, as it does at once when the server refuses the login or the database.
 */
export async function migrateAtStart(
  store: Store,
  config: Config,
  logger: Logger,
  waitMs = STORE_START_WAIT_MS,
): Promise<void> {
  const location = databaseLocation(config.databaseUrl);
  const setting = store.dialect === 'sqlite' ? sqliteSetting(config) : 'DATABASE_URL';
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await store.migrate();
      return;
    } catch (error) {
      // The server's own refusal, whether or not the store has wrapped it as unavailable.
      const refusal = error instanceof StoreUnavailableError ? error.cause : error;
      const code = (refusal as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string' && (code.startsWith('28') || SETTING_SQLSTATES.has(code)))
        throw new ConfigError(setting, `${location} refused: ${(refusal as Error).message}`, 'Unusable');
      if (!(error instanceof StoreUnavailableError)) throw error;
      if (Date.now() + STORE_RETRY_MS > deadline) {
        throw new ConfigError(
          setting,
          `${location} did not answer within ${Math.round(waitMs / 1000)} s (${error.cause instanceof Error ? error.cause.message : error.message})`,
          'Unusable',
        );
      }
      logger.warn({ database: location, err: error.message }, 'database not answering at start: trying again');
      await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
    }
  }
}

/** Listen errors a setting causes (an address not on this host, a privileged port, a name that does not resolve). */
const SETTING_LISTEN_CODES: Readonly<Record<string, string>> = {
  EADDRNOTAVAIL: 'is not an address of this machine',
  EACCES: 'needs privileges this process does not have',
  ENOTFOUND: 'does not resolve',
  EAI_AGAIN: 'does not resolve',
};

/** Where a listen binds and the names of the settings that chose it. */
export interface ListenSettings {
  readonly hostSetting: string;
  readonly portSetting: string;
  readonly host: string;
  readonly port: number;
}

/** Runs a listen; a failure the settings cause names them (EADDRINUSE, another process on the port, stays a failed start). */
export async function listenNaming<T>(
  listen: () => Promise<T>,
  { hostSetting, portSetting, host, port }: ListenSettings,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const problem = SETTING_LISTEN_CODES[codeOf(error)];
    if (problem === undefined) throw error;
    const setting = codeOf(error) === 'EACCES' ? portSetting : hostSetting;
    throw new ConfigError(
      setting,
      `cannot listen on ${host}:${port}: ${setting === portSetting ? `port ${port}` : host} ${problem}`,
      'Unusable',
    );
  }
}
