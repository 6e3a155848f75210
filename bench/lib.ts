/** What every benchmark shares: core pinning, starting and stopping a service process, percentiles, RSS. */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** The node flags `npm start` runs the service with, so a benchmark measures exactly that. */
export function startFlags(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** CPU profile of the service when BENCH_PROFILE_DIR is set. */
const profileFlags = (): string[] =>
  process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];

/** Spawns `node <args>` pinned to core 0 (taskset execs node, so the pid is node's). */
export function spawnPinned(
  args: string[],
  env: Record<string, string>,
  stdout: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  const argv = [...profileFlags(), ...args];
  const [command, commandArgs] = hasTaskset
    ? ['taskset', ['-c', '0', process.execPath, ...argv]]
    : [process.execPath, argv];
  return spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
}

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

/**
 * The built service (`npm run build` first) as `npm start` runs it (plus `extraFlags`), on core 0, answering on
 * 127.0.0.1:`port`; `main`: another build's entry point (a copy of dist/ in the repository root, for an A/B).
 */
export async function startBuiltService(
  port: number,
  env: Record<string, string>,
  extraFlags: string[] = [],
  main = 'dist/main.js',
): Promise<ChildProcess> {
  const child = spawnPinned([...startFlags(), ...extraFlags, main], {
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_PORT: '0',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    ...env,
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  return child;
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

/** CPU seconds (user + system) `pid` has used so far, from /proc (NaN where there is none). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks; 100 per second on Linux
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
  const schema = `bench_${Date.now()}`;
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

/** CPU seconds each of `pids` has used so far (those that are gone are left out). */
export function cpuByPid(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuSeconds(pid)] as const).filter(([, seconds]) => !Number.isNaN(seconds)));
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
