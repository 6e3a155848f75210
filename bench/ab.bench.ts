/**
 * Interleaved A/B of builds of the service at its defaults (SQLite FULL, READ_CHARGES=deferred, LOG_LEVEL=info),
 * with a bare node:http server as the ratio's reference, pinned as the other benchmarks (servers on core 0, this
 * load generator on core 1, 50 connections). Each build is a copy of `dist/` in the repository root (so its imports
 * resolve), e.g. `cp -r dist dist-base` before a change and `npm run build` after it, each on a database of its own.
 * BENCH_ROUNDS rounds load bare, then every build's GET and POST /kv in a new random order, BENCH_SECONDS each; the
 * medians of the server's CPU µs per request and of the per-round differences against the first build are printed.
 * Then one load per run counts the server's system calls and context switches per request (all threads) with
 * `perf stat` on the syscall tracepoints, apart from the CPU rounds since counting adds work to each call.
 * Usage: npm run bench:ab  (builds dist/ first; BENCH_BUILDS, default "dist": comma-separated
 * `name=directory:KEY=value;KEY=value`, the name and settings optional, e.g. "base=dist-base,new=dist"; a setting
 * NODE_FLAGS="--a --b" adds node flags to that build's; BENCH_PATHS,
 * default "GET,POST"; BENCH_ROUNDS, default 5; BENCH_SECONDS, default 5; BENCH_SYSCALLS=0 skips the count;
 * BENCH_ENV, JSON of settings for every build; BENCH_TOGETHER=1 loads every build's run of a path at the same time)
 * BENCH_TOGETHER=1 is for a host whose speed swings from one second to the next (a neighbour on the same physical
 * core): the builds share core 0 and one window, so what slows one slows the others alike, and the per-round
 * differences swing far less than between loads one after the other (bench/RESULTS.md, "Builds loaded together").
 * Each server then has half the core: read only the Δ, not the req/s or the ratios.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  CONNECTIONS,
  cpuSeconds,
  CREDITS,
  freePort,
  fundedToken,
  percentiles,
  pinningNote,
  pinSelf,
  spawnPinned,
  startBuiltService,
  stopProcess,
  VALUE,
  waitForHttp,
  WARM_UP_SECONDS,
  withScratchDir,
} from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PATHS = (process.env.BENCH_PATHS ?? 'GET,POST').split(',') as ('GET' | 'POST')[];
const EXTRA_ENV = JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>;
const TOGETHER = process.env.BENCH_TOGETHER === '1';

/** The system calls counted one by one; the rest only in the total. */
const COUNTED = [
  'pwrite64',
  'pread64',
  'fdatasync',
  'fcntl',
  'write',
  'writev',
  'read',
  'epoll_pwait',
  'epoll_wait',
  'epoll_ctl',
  'futex',
  'madvise',
  'mmap',
  'munmap',
  'mprotect',
  'newfstatat',
  'newfstat',
  'statx',
  'io_uring_enter',
  'lseek',
];

interface Build {
  readonly name: string;
  readonly dist: string;
  /** Settings of this build alone (after BENCH_ENV's). */
  readonly env: Record<string, string>;
  /** Node flags added to `npm start`'s for this build: its NODE_FLAGS setting, space-separated (e.g. a V8 flag to try). */
  readonly flags: string[];
}

/** `name=directory:KEY=value;KEY=value` (name, settings optional), comma-separated. */
function builds(): Build[] {
  return (process.env.BENCH_BUILDS ?? 'dist').split(',').map((entry) => {
    // The settings may hold colons (a DATABASE_URL): only the first one ends the directory.
    const colon = entry.indexOf(':');
    const [named, settings] = colon < 0 ? [entry, ''] : [entry.slice(0, colon), entry.slice(colon + 1)];
    const [name, dist] = named.includes('=') ? (named.split('=') as [string, string]) : [named, named];
    if (!existsSync(join(dist, 'main.js'))) throw new Error(`${dist}/main.js is missing: build or copy it first`);
    const { NODE_FLAGS: flags = '', ...env } = Object.fromEntries(
      settings
        .split(';')
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    return { name, dist, env, flags: flags.split(' ').filter(Boolean) };
  });
}

interface Run {
  readonly name: string;
  /** The path a build's run loads (none for bare). */
  readonly path?: 'GET' | 'POST';
  readonly server: ChildProcess;
  readonly options: autocannon.Options;
  readonly cpuUs: number[];
  readonly rps: number[];
  readonly p99: number[];
  syscalls?: Map<string, number>;
}

async function load(run: Run, seconds: number): Promise<{ cpuUs: number; rps: number; p99: number; requests: number }> {
  const before = cpuSeconds(run.server.pid);
  const result = await autocannon({ ...run.options, connections: CONNECTIONS, duration: seconds });
  if (result.errors || result.non2xx) throw new Error(`${run.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  const requests = result.requests.total;
  const cpuUs = ((cpuSeconds(run.server.pid) - before) * 1e6) / requests;
  return { cpuUs, rps: result.requests.average, p99: result.latency.p99, requests };
}

/** System calls per request of every thread of the server during one load, by `perf stat` on syscall tracepoints. */
async function countSyscalls(run: Run, seconds: number): Promise<Map<string, number>> {
  const events = [
    'task-clock',
    'context-switches',
    'raw_syscalls:sys_enter',
    ...COUNTED.map((name) => `syscalls:sys_enter_${name}`),
  ];
  const perf = spawn('perf', ['stat', '-x', ',', '-e', events.join(','), '-p', String(run.server.pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  perf.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => perf.once('exit', resolve));
  perf.once('error', () => undefined); // perf missing: reported below as a failure to count
  await new Promise((resolve) => setTimeout(resolve, 300)); // attached before the load starts
  if (perf.exitCode !== null || perf.pid === undefined) {
    console.error(`not counted (perf stat did not start): ${output.trim()}`);
    return new Map();
  }
  const { requests } = await load(run, seconds);
  perf.kill('SIGINT');
  await exited;
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    const [value, , event] = line.split(',');
    if (event === undefined || value === undefined || Number.isNaN(Number(value))) continue;
    const name = event.replace(/^raw_syscalls:sys_enter$/, 'all').replace(/^syscalls:sys_enter_/, '');
    // task-clock is in ms: µs per request.
    counts.set(
      name === 'task-clock' ? 'task µs' : name,
      (Number(value) * (name === 'task-clock' ? 1000 : 1)) / requests,
    );
  }
  return counts;
}

const median = (values: readonly number[]): number => percentiles(values).p50;

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

async function main(): Promise<void> {
  pinSelf(1);
  const list = builds();
  const children: ChildProcess[] = [];
  try {
    await withScratchDir('coinop-ab-', async (dir) => {
      const barePort = await freePort();
      const bare = spawnPinned(['bench/bare-server.mjs'], { PORT: String(barePort) });
      children.push(bare);
      await waitForHttp(`http://127.0.0.1:${barePort}/`);
      const runs: Run[] = [
        {
          name: 'bare node:http',
          server: bare,
          options: { url: `http://127.0.0.1:${barePort}/` },
          cpuUs: [],
          rps: [],
          p99: [],
        },
      ];
      for (const build of list) {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const env = {
          DATABASE_URL: `sqlite:${join(dir, `${build.name}.db`)}`,
          LOG_LEVEL: 'info',
          ...EXTRA_ENV,
          ...build.env,
        };
        const server = await startBuiltService(port, env, { main: `${build.dist}/main.js`, flags: build.flags });
        children.push(server);
        const token = await fundedToken(url, CREDITS);
        const headers = { 'x-token': token };
        const seeded = await fetch(`${url}/kv/bench/key`, { method: 'POST', body: VALUE, headers });
        if (!seeded.ok) throw new Error(`seeding ${build.name}: ${seeded.status}`);
        for (const path of PATHS) {
          const options: autocannon.Options =
            path === 'GET'
              ? { url: `${url}/kv/bench/key`, headers }
              : { url: `${url}/kv/bench/key?ttl=3600`, method: 'POST', body: VALUE, headers };
          runs.push({ name: `${build.name} ${path} /kv`, path, server, options, cpuUs: [], rps: [], p99: [] });
        }
      }
      for (const run of runs) await load(run, WARM_UP_SECONDS);
      const record = (run: Run, { cpuUs, rps, p99 }: { cpuUs: number; rps: number; p99: number }): void => {
        run.cpuUs.push(cpuUs);
        run.rps.push(rps);
        run.p99.push(p99);
      };
      for (let round = 0; round < ROUNDS; round++) {
        // A new order each round (bare first), so no build always follows the same one.
        const [bareRun, ...buildRuns] = runs as [Run, ...Run[]];
        const groups = TOGETHER
          ? shuffled(PATHS).map((path) => shuffled(buildRuns.filter((run) => run.path === path)))
          : shuffled(buildRuns).map((run) => [run]);
        for (const group of [[bareRun], ...groups]) {
          const results = await Promise.all(group.map((run) => load(run, SECONDS)));
          group.forEach((run, i) => record(run, results[i] as Awaited<ReturnType<typeof load>>));
        }
        console.error(
          `round ${round + 1}: ${runs.map((run) => `${run.name} ${run.cpuUs.at(-1)?.toFixed(1)}`).join(', ')}`,
        );
      }
      if (process.env.BENCH_SYSCALLS !== '0') {
        for (const run of runs) run.syscalls = await countSyscalls(run, SECONDS);
      }
      report(runs);
    });
  } finally {
    await Promise.all(children.map((child) => stopProcess(child)));
  }
}

function report(runs: readonly Run[]): void {
  const bare = runs[0] as Run;
  const bareRps = median(bare.rps);
  const bareCpu = median(bare.cpuUs);
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s${TOGETHER ? ', the builds loaded together' : ''}, ` +
      `servers pinned to core 0${pinningNote}; ` +
      `load average at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  console.log(
    'medians over the rounds; Δ = the median of the per-round differences against the same path of the first build\n',
  );
  console.log(
    '| run | req/s | ratio to bare | p99 ms | CPU µs/req | CPU ratio to bare | Δ µs | CPU µs/req per round |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const perBuild = PATHS.length;
  runs.forEach((run, i) => {
    const first = i === 0 ? undefined : runs[1 + ((i - 1) % perBuild)];
    const delta =
      first === undefined || first === run
        ? '–'
        : median(run.cpuUs.map((value, round) => value - (first.cpuUs[round] ?? value))).toFixed(1);
    console.log(
      `| ${run.name} | ${Math.round(median(run.rps))} | ${((median(run.rps) / bareRps) * 100).toFixed(0)} % | ${median(run.p99)} | ` +
        `${median(run.cpuUs).toFixed(1)} | ${((bareCpu / median(run.cpuUs)) * 100).toFixed(0)} % | ${delta} | ` +
        `${run.cpuUs.map((value) => value.toFixed(1)).join(', ')} |`,
    );
  });
  if (runs.every((run) => run.syscalls === undefined)) return;
  console.log(`\nsystem calls per request (one counted load of ${SECONDS} s per run, every thread)\n`);
  const names = ['task µs', 'context-switches', 'all', ...COUNTED].filter((name) =>
    runs.some((run) => (run.syscalls?.get(name) ?? 0) >= 0.005),
  );
  console.log(`| run | ${names.join(' | ')} |\n| --- |${' ---: |'.repeat(names.length)}`);
  for (const run of runs)
    console.log(
      `| ${run.name} | ${names.map((name) => (run.syscalls?.get(name) ?? 0).toFixed(name === 'task µs' ? 1 : 2)).join(' | ')} |`,
    );
}

await main();
