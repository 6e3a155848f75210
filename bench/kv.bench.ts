/**
 * KV throughput of coinop against two baselines measured in the same run, same core pinning: a bare node:http
 * server (the ceiling) and the do-it-yourself alternative, a Fastify server with one Redis Lua script per call
 * (bench/redis-kv-server.mjs). Every server starts once and is warmed up; then BENCH_ROUNDS interleaved rounds
 * load, in turn, bare, Redis GET and POST, coinop SQLite GET and POST, and coinop PostgreSQL GET and POST (when
 * BENCH_DATABASE_URL is set), each for BENCH_SECONDS, so the machine's drift hits every run alike; medians of the
 * rounds are printed. Servers run on core 0, the load generator (this process) on core 1.
 * Usage: npm run bench (builds first)  (BENCH_ROUNDS, default 3; BENCH_SECONDS, default 8;
 * BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres; Redis at REDIS_URL, default redis://127.0.0.1:6379)
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import {
  cpuByPid,
  cpuSeconds,
  cpuSpent,
  freePort,
  fundedToken,
  percentiles,
  pidsOf,
  pinProcesses,
  whilePinned,
  pinSelf,
  pinningNote,
  spawnPinned,
  startBuiltService,
  startFlags,
  stopProcess,
  waitForHttp,
  withPostgresSchema,
  withScratchDir,
} from './lib.js';
import type { Pinned } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 50;
const VALUE = 'a value of moderate size';
const CREDITS = 1_000_000_000;

/** A database server, whose processes' CPU time is reported apart from the service's. */
interface Database {
  readonly label: string;
  readonly pids: () => number[];
}
const REDIS: Database = { label: 'redis-server', pids: () => pidsOf('redis-server', true) };
const POSTGRES: Database = { label: 'postgres', pids: () => pidsOf('postgres') };

interface Sample {
  rps: number;
  /** The server's CPU time per request: unlike req/s, not capped by the load generator and less moved by the machine's noise. */
  cpuUs: number;
  databaseCpuUs: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface Run {
  readonly name: string;
  readonly server: ChildProcess;
  readonly database?: Database;
  readonly options: autocannon.Options;
  readonly samples: Sample[];
}

/** One load of `run` for `seconds`; refuses a run with errors or non-2xx answers (it would not measure the path it names). */
async function measure(run: Run, seconds: number): Promise<Sample> {
  const databaseBefore = cpuByPid(run.database?.pids() ?? []);
  const cpuBefore = cpuSeconds(run.server.pid);
  const result = await autocannon({ ...run.options, connections: CONNECTIONS, duration: seconds });
  const perRequest = (cpu: number): number => (cpu * 1e6) / result.requests.total;
  const cpuUs = perRequest(cpuSeconds(run.server.pid) - cpuBefore);
  const databaseCpuUs = run.database ? perRequest(cpuSpent(databaseBefore, cpuByPid(run.database.pids()))) : NaN;
  if (result.errors || result.non2xx) throw new Error(`${run.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  const { p50, p99 } = result.latency;
  return { rps: result.requests.average, cpuUs, databaseCpuUs, p50, p99, errors: result.errors, non2xx: result.non2xx };
}

const kvRuns = (name: string, server: ChildProcess, url: string, token: string, database?: Database): Run[] => {
  const headers = { 'x-token': token };
  return [
    { name: `${name} GET /kv`, server, database, options: { url: `${url}/kv/bench/key`, headers }, samples: [] },
    {
      name: `${name} POST /kv`,
      server,
      database,
      options: { url: `${url}/kv/bench/key?ttl=3600`, method: 'POST', body: VALUE, headers },
      samples: [],
    },
  ];
};

async function seed(url: string, token: string): Promise<void> {
  const set = await fetch(`${url}/kv/bench/key`, { method: 'POST', body: VALUE, headers: { 'x-token': token } });
  if (!set.ok) throw new Error(`seeding ${url}: ${set.status} ${await set.text()}`);
}

/** Every server of the run, started and stopped together; `runs` in the order each round loads them. */
class Servers {
  readonly runs: Run[] = [];
  private readonly children: ChildProcess[] = [];

  private track(child: ChildProcess): ChildProcess {
    this.children.push(child);
    return child;
  }

  async bare(): Promise<void> {
    const port = await freePort();
    const child = this.track(spawnPinned(['bench/bare-server.mjs'], { PORT: String(port) }));
    await waitForHttp(`http://127.0.0.1:${port}/`);
    this.runs.push({
      name: 'bare node:http',
      server: child,
      options: { url: `http://127.0.0.1:${port}/` },
      samples: [],
    });
  }

  /** The Redis baseline with the node flags `npm start` gives coinop, so it is not slowed by the GC's defaults. */
  async redis(): Promise<void> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const token = `bench-${randomUUID()}`;
    const env = { PORT: String(port), BENCH_TOKEN: token, BENCH_CREDITS: String(CREDITS) };
    const child = this.track(spawnPinned([...startFlags(), 'bench/redis-kv-server.mjs'], env));
    await waitForHttp(`${url}/healthz`);
    await seed(url, token);
    this.runs.push(...kvRuns('Redis + Lua', child, url, token, REDIS));
  }

  async coinop(label: string, databaseUrl: string, database?: Database): Promise<void> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = this.track(await startBuiltService(port, { DATABASE_URL: databaseUrl }));
    const token = await fundedToken(url, CREDITS);
    await seed(url, token);
    this.runs.push(...kvRuns(`coinop ${label}`, child, url, token, database));
  }

  /** Stops every server; the Redis baseline deletes its keys as it stops. */
  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => stopProcess(child)));
  }
}

const median = (values: readonly number[]): number => percentiles(values).p50;
const fixed = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(1));

function report(runs: readonly Run[], notes: readonly string[]): void {
  const bareRps = median(runs[0]?.samples.map((s) => s.rps) ?? []);
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, servers pinned to core 0${pinningNote}; ${notes.join('; ')};`,
  );
  console.log(
    "medians over the rounds; ratio = req/s ÷ the median of bare node:http; server CPU = the server process's user + system time per request;",
  );
  console.log(
    "database CPU = that of every redis-server or postgres process per request (shared servers: other clients' work included);",
  );
  console.log(
    "Redis runs without persistence (no RDB, no AOF): a crash loses its debits and values, unlike coinop's fsync per commit.\n",
  );
  console.log(
    '| run | req/s | ratio to bare | server CPU µs/req | database CPU µs/req | p50 ms | p99 ms | errors | non-2xx |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const run of runs) {
    const of = (pick: (s: Sample) => number): number => median(run.samples.map(pick));
    const rps = of((s) => s.rps);
    const sum = (pick: (s: Sample) => number): number => run.samples.reduce((total, s) => total + pick(s), 0);
    console.log(
      `| ${run.name} | ${Math.round(rps)} | ${((rps / bareRps) * 100).toFixed(0)} % | ${fixed(of((s) => s.cpuUs))} | ${fixed(of((s) => s.databaseCpuUs))} | ` +
        `${of((s) => s.p50)} | ${of((s) => s.p99)} | ${sum((s) => s.errors)} | ${sum((s) => s.non2xx)} |`,
    );
  }
  const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1);
  console.log(
    `\nreq/s in each round\n\n| run | ${rounds.map((i) => `round ${i}`).join(' | ')} |\n| --- |${' ---: |'.repeat(ROUNDS)}`,
  );
  for (const run of runs) console.log(`| ${run.name} | ${run.samples.map((s) => Math.round(s.rps)).join(' | ')} |`);
}

async function bench(dir: string, postgresUrl: string | undefined): Promise<void> {
  // The database servers go to the load generator's core for the run: Linux wakes a process on the core of the
  // process that woke it, so unpinned redis-server or postgres backends would run on the measured service's core
  // and make its numbers swing by 2x between runs. Their affinity is restored afterwards (they are shared).
  const pinned: Pinned[] = [pinProcesses('redis-server', REDIS.pids, 1)];
  if (postgresUrl !== undefined) pinned.push(pinProcesses('postgres', POSTGRES.pids, 1));
  const servers = new Servers();
  const notes = await whilePinned(
    pinned,
    () => servers.stop(),
    async () => {
      await servers.bare();
      await servers.redis();
      await servers.coinop('SQLite', `sqlite:${dir}/bench.db`);
      if (postgresUrl !== undefined) await servers.coinop('PostgreSQL', postgresUrl, POSTGRES);
      for (const run of servers.runs) await measure(run, WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const run of servers.runs) run.samples.push(await measure(run, SECONDS));
      }
    },
  );
  report(servers.runs, notes);
}

async function main(): Promise<void> {
  pinSelf(1);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  await withScratchDir('coinop-bench-', (dir) =>
    postgresUrl ? withPostgresSchema(postgresUrl, (url) => bench(dir, url)) : bench(dir, undefined),
  );
}

await main();
