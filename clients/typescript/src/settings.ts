import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_URL = 'http://localhost:8080';

/**
 * Where the SDK and the CLI find the service and the token, in one order: what the caller passes (the CLI's --url and
 * --token, the SDK's options), then COINOP_URL/COINOP_TOKEN (ADMIN_TOKEN for the operator), then the config file that
 * `coinop token new --save` writes, then http://localhost:8080 (where `npm start` serves).
 */
export interface Settings {
  readonly url: string;
  readonly token: string | undefined;
  readonly adminToken: string | undefined;
}

interface ConfigFile {
  url?: string;
  token?: string;
}

/** `$XDG_CONFIG_HOME/coinop/config.json`, by default `~/.config/coinop/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'coinop', 'config.json');
}

export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {}; // no file: every setting comes from the environment or its default
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON: fix it or delete it (coinop token new --save writes a new one)`);
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { url, token } = parsed as Record<string, unknown>;
  return { ...(typeof url === 'string' ? { url } : {}), ...(typeof token === 'string' ? { token } : {}) };
}

/** Keeps the other settings of the file; the file holds a secret, so only its owner may read it. */
export function saveConfigFile(path: string, changes: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify({ ...readConfigFile(path), ...changes }, null, 2)}\n`, { mode: 0o600 });
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

export function resolveSettings(
  given: { url?: string | undefined; token?: string | undefined; adminToken?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const file = readConfigFile(configPath(env));
  return {
    url: nonEmpty(given.url) ?? nonEmpty(env.COINOP_URL) ?? file.url ?? DEFAULT_URL,
    token: nonEmpty(given.token) ?? nonEmpty(env.COINOP_TOKEN) ?? file.token,
    adminToken: nonEmpty(given.adminToken) ?? nonEmpty(env.ADMIN_TOKEN),
  };
}
