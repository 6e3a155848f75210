/** What every benchmark shares: core pinning, starting and stopping a service process, percentiles, RSS. */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sha256Hex } from '../src/lib/hash.js';

import { freePort } from '../test/helpers/server-process.js';

export { freePort };

export const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export const pinningNote = hasTaskset ? '' : ' (taskset missing: not pinned)';

/** Moves this process (the load generator) to `core`. */
export function pinSelf(core: number): void {
  if (hasTaskset) execFileSync('taskset', ['-cp', String(core), String(process.pid)], { stdio: 'ignore' });
}

/** The node flags `npm start` runs the service with (that of the checkout at `root`), so a benchmark measures exactly that. */
export function startFlags(root = '.'): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** CPU profile of the service when BENCH_PROFILE_DIR is set. */
const profileFlags = (): string[] =>
  process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];

/** Spawns `node <args>` pinned to core 0 (taskset execs node, so the pid is node's); `stdout` may be an open file's descriptor; `cwd` defaults to this one. */
export function spawnPinned(
  args: string[],
  env: Record<string, string>,
  stdout: 'ignore' | 'pipe' | number = 'ignore',
  cwd?: string,
): ChildProcess {
  const argv = [...profileFlags(), ...args];
  const [command, commandArgs] = hasTaskset
    ? ['taskset', ['-c', '0', process.execPath, ...argv]]
    : [process.execPath, argv];
  return spawn(command, commandArgs, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
}

/** The load every HTTP benchmark applies: connections, warm-up before measuring, the bench wallet's credits, a KV value. */
export const CONNECTIONS = 50;
export const WARM_UP_SECONDS = 2;
export const CREDITS = 1_000_000_000;
export const VALUE = 'a value of moderate size';

/** The service's ADMIN_TOKEN in every benchmark (startBuiltService), so a benchmark can fund its wallet. */
const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** A new token from the service at `url`, its wallet holding the 100 credits every new wallet gets. */
export async function newToken(url: string): Promise<string> {
  const created = await fetch(`${url}/token`, {
    method: 'POST',
    body: 'token=new',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (!created.ok) throw new Error(`creating the bench token: ${created.status} ${await created.text()}`);
  return created.text();
}

/** A new token for the service at `url` (started by startBuiltService), its wallet credited `credits`. */
export async function fundedToken(url: string, credits: number): Promise<string> {
  const token = await newToken(url);
  const credited = await fetch(`${url}/manage/wallets/${sha256Hex(token)}/credit`, {
    method: 'POST',
    body: JSON.stringify({ amount: credits }),
    headers: { 'content-type': 'application/json', 'x-admin-token': BENCH_ADMIN_TOKEN },
  });
  if (!credited.ok) throw new Error(`crediting the bench wallet: ${credited.status} ${await credited.text()}`);
  return token;
}

export async function waitForHttp(url: string, attempts = 300): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      if (i >= attempts) throw new Error(`${url} did not come up`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export interface ServiceOptions {
  /** Node flags added to those of `npm start`. */
  readonly flags?: readonly string[];
  /** The checkout whose dist/main.js runs, from its own folder (default: this one), e.g. a built copy of the base branch. */
  readonly root?: string;
  /** The build to run, a path from this folder: this checkout's dist/main.js unless given (another's, for an A/B run). */
  readonly main?: string;
  /** A file the service's stdout (its log) is appended to, as a user's log file. */
  readonly logFile?: string;
  /** Or an open file's descriptor for its stdout; neither: thrown away. */
  readonly stdout?: number;
}

/**
 * The built service (`npm run build` first) as `npm start` runs it, on core 0, answering on 127.0.0.1:`port`. Its
 * LOG_LEVEL is warn unless `env` sets one (the KV benchmark's headline runs at the default, info, into a log file).
 */
export async function startBuiltService(
  port: number,
  env: Record<string, string>,
  options: ServiceOptions = {},
): Promise<ChildProcess> {
  // The child holds its own copy of the descriptor: this process closes its one at once.
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawnPinned(
      [...startFlags(options.root), ...(options.flags ?? []), options.main ?? 'dist/main.js'],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        SMTP_PORT: '0',
        LOG_LEVEL: 'warn',
        ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
        ...env,
      },
      log ?? options.stdout ?? 'ignore',
      options.root,
    );
  } finally {
    if (log !== undefined) closeSync(log);
  }
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  return child;
}

export type RedisFsync = 'everysec' | 'always';

/**
 * A redis-server of the benchmark's own (the machine's shared one on 6379 keeps nothing on disk and is not ours to
 * reconfigure), on a free loopback port, its data and log in `dir`, pinned to `core` (taskset execs it: the pid is
 * Redis's, and the threads and the AOF rewrite children it starts inherit the pin). Persistence: no RDB snapshots, the
 * append-only file fsynced as `fsync` says (everysec is what Redis's docs recommend as the durable default). The binary
 * is /usr/bin/redis-server unless BENCH_REDIS_SERVER names another.
 */
export async function startRedisServer(
  dir: string,
  fsync: RedisFsync,
  core = 1,
): Promise<{ child: ChildProcess; url: string }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const binary = process.env.BENCH_REDIS_SERVER ?? '/usr/bin/redis-server';
  const args = [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--logfile', join(dir, 'redis.log')],
    ...['--save', '', '--appendonly', 'yes', '--appendfsync', fsync],
  ];
  const [command, commandArgs] = hasTaskset ? ['taskset', ['-c', String(core), binary, ...args]] : [binary, args];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) => reject(new Error(`${binary} exited (${code}): see ${join(dir, 'redis.log')}`))),
  );
  exited.catch(() => {});
  await Promise.race([waitForRedis(port), exited]);
  return { child, url: `redis://127.0.0.1:${port}` };
}

/** Resolves once the Redis on `port` answers PING (it answers -LOADING while it reads its files). */
async function waitForRedis(port: number, attempts = 300): Promise<void> {
  const pong = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.setTimeout(1000, () => socket.destroy());
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
    });
  for (let i = 0; !(await pong()); i++) {
    if (i >= attempts) throw new Error(`redis-server on port ${port} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service from its TypeScript sources (as `npm run dev`), on core 0, answering on loopback; `env` adds settings. */
export async function startSourceService(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawnPinned(['--import', 'tsx', 'src/main.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_PORT: '0',
    LOG_LEVEL: 'warn',
    ...env,
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/**
 * CPU seconds (user + system) `pid` has used so far, from /proc (NaN where there is none); with `reaped`, those of
 * its children it has waited for too (Redis's AOF rewrites, forked and reaped by the server).
 */
export function cpuSeconds(pid: number | undefined, reaped = false): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, then the
    // reaped children's cutime and cstime.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (own + (reaped ? Number(fields[13]) + Number(fields[14]) : 0)) / 100; // clock ticks; 100 per second on Linux
  } catch {
    return NaN;
  }
}

export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** Runs `run` against a scratch schema of the PostgreSQL server at `base`, dropped afterwards. */
export async function withPostgresSchema<T>(base: string, run: (url: string) => Promise<T>): Promise<T> {
  // Random, not only the time: a benchmark may take two at once (bench/kv.bench.ts: coinop's and its peer's).
  const schema = `bench_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

/** Runs `run` with a fresh temp folder, removed afterwards. */
export async function withScratchDir<T>(prefix: string, run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `bench` on SQLite (a file in `dir`; skipped with BENCH_SKIP_SQLITE=1) and on PostgreSQL when BENCH_DATABASE_URL is set. */
export async function onEachStore<R>(
  dir: string,
  bench: (label: 'SQLite' | 'PostgreSQL', databaseUrl: string) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  if (process.env.BENCH_SKIP_SQLITE !== '1') results.push(await bench('SQLite', `sqlite:${join(dir, 'bench.db')}`));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) results.push(await withPostgresSchema(pgUrl, (url) => bench('PostgreSQL', url)));
  return results;
}

/** The pids of the processes `pgrep` finds for `pattern` (`-x`: the whole name), [] when none or pgrep is missing. */
export function pidsOf(pattern: string, exact = false): number[] {
  try {
    const found = execFileSync('pgrep', exact ? ['-x', pattern] : [pattern], { encoding: 'utf8' });
    return found.split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds each of `pids` has used so far (those that are gone are left out); `reaped` as cpuSeconds. */
export function cpuByPid(pids: readonly number[], reaped = false): Map<number, number> {
  return new Map(
    pids.map((pid) => [pid, cpuSeconds(pid, reaped)] as const).filter(([, seconds]) => !Number.isNaN(seconds)),
  );
}

/** CPU seconds spent between two cpuByPid readings: a pid started meanwhile counts whole, one gone meanwhile is lost. */
export function cpuSpent(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let spent = 0;
  for (const [pid, seconds] of after) spent += seconds - (before.get(pid) ?? 0);
  return spent;
}

export interface Pinned {
  /** What was pinned, or why nothing was, for a benchmark's header. */
  readonly note: string;
  /** Sets every process `select` finds back to its mask from before (one started meanwhile, which inherited the pin, gets the first one's). */
  restore(): void;
}

/**
 * Pins every thread of every process `select` finds to `core` (taskset -a), remembering each one's mask. Best effort: with
 * taskset missing or refused, nothing is pinned and the note says why.
 */
export function pinProcesses(label: string, select: () => number[], core: number): Pinned {
  const saved = new Map<number, string>();
  const restore = (): void => {
    const fallback = saved.values().next().value;
    for (const pid of select()) {
      const mask = saved.get(pid) ?? fallback;
      if (mask === undefined) continue;
      try {
        execFileSync('taskset', ['-a', '-p', mask, String(pid)], { stdio: 'ignore' });
      } catch {
        // Gone meanwhile.
      }
    }
  };
  if (!hasTaskset) return { note: `${label} not pinned (taskset missing)`, restore };
  const pids = select();
  if (pids.length === 0) return { note: `${label}: no process found, not pinned`, restore };
  try {
    for (const pid of pids) {
      const shown = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
      const mask = /mask:\s*([0-9a-f,]+)\s*$/i.exec(shown)?.[1];
      if (mask === undefined) throw new Error(`unreadable affinity: ${shown}`);
      saved.set(pid, mask);
      execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    }
  } catch (error) {
    restore();
    return {
      note: `${label} not pinned (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      restore: () => {},
    };
  }
  return { note: `${label} (${pids.length} process${pids.length === 1 ? '' : 'es'}) pinned to core ${core}`, restore };
}

/** The ADMIN_TOKEN startBuiltService gives the service, for a benchmark server started otherwise (bench/no-store-server.mjs) to be funded too. */
export { BENCH_ADMIN_TOKEN };

/**
 * Runs `measure` with the database servers `pinned` (pinProcesses) and stops the benchmark's own servers after; the
 * databases' affinity is restored whatever happens, Ctrl-C included (the finally would not run then: the servers are
 * stopped and the process exits 130). Returns the pins' notes, for the header.
 */
export async function whilePinned(
  pinned: readonly Pinned[],
  stopServers: () => Promise<void>,
  measure: () => Promise<void>,
): Promise<string[]> {
  const restore = (): void => pinned.forEach((pin) => pin.restore());
  const interrupted = (): void => {
    restore();
    void stopServers().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  try {
    await measure();
  } finally {
    process.off('SIGINT', interrupted);
    await stopServers();
    restore();
  }
  return pinned.map((pin) => pin.note);
}
