/**
 * KV throughput of coinop as users run it against the peers a user would build instead, each keeping what it promises,
 * in one interleaved run with the same core pinning:
 * - bare node:http (the ceiling, keeps nothing);
 * - coinop on SQLite and on PostgreSQL (BENCH_DATABASE_URL) at the defaults: LOG_LEVEL=info, its access log going to
 *   a file in the scratch folder as a user's log file would; then the same at LOG_LEVEL=warn;
 * - the Redis peer (bench/redis-kv-server.mjs: Fastify and one Lua script per call) on redis-servers the benchmark
 *   starts itself, persisting with the append-only file: `appendfsync everysec` (Redis's durable default) and
 *   `appendfsync always`; the machine's shared Redis keeps nothing on disk, and is neither used nor reconfigured;
 * - the PostgreSQL peer (bench/postgres-kv-server.mjs: Fastify and a pg.Pool, one transaction per call, durable at
 *   commit), with BENCH_DATABASE_URL, in a scratch schema of its own;
 * - with BENCH_BASE_DIST=/another/checkout/dist, that build as "coinop SQLite (base)" with the same settings, so two
 *   builds are compared in one run.
 * Every server starts once and is warmed up; then BENCH_ROUNDS rounds load each run in turn (GET and POST /kv) for
 * BENCH_SECONDS, so the machine's drift hits every run alike; medians of the rounds are printed, each run with its
 * durability in words and its ratio to bare node:http. Services run on core 0; the load generator (this process)
 * and the database servers on core 1.
 * Usage: npm run bench (builds first)  (BENCH_ROUNDS, default 3; BENCH_SECONDS, default 8; BENCH_DATABASE_URL, e.g.
 * postgres://postgres@127.0.0.1:5432/postgres; BENCH_BASE_DIST; BENCH_REDIS_SERVER, default /usr/bin/redis-server)
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  CONNECTIONS,
  cpuByPid,
  cpuSeconds,
  cpuSpent,
  CREDITS,
  freePort,
  fundedToken,
  percentiles,
  pidsOf,
  pinningNote,
  pinProcesses,
  pinSelf,
  spawnPinned,
  startBuiltService,
  startFlags,
  startRedisServer,
  stopProcess,
  VALUE,
  waitForHttp,
  WARM_UP_SECONDS,
  whilePinned,
  withPostgresSchema,
  withScratchDir,
} from './lib.js';
import type { Pinned, RedisFsync } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REDIS_SERVER = process.env.BENCH_REDIS_SERVER ?? '/usr/bin/redis-server';

/** A database server, whose processes' CPU time is reported apart from the service's: seconds by pid, so far. */
interface Database {
  readonly cpu: () => Map<number, number>;
}
/** Every postgres process of the (shared) server: other clients' work is counted too. */
const POSTGRES: Database = { cpu: () => cpuByPid(pidsOf('postgres')) };
/** One of the benchmark's own redis-servers, with the AOF rewrites it forked and reaped. */
const ownRedis = (child: ChildProcess): Database => ({ cpu: () => cpuByPid(child.pid ? [child.pid] : [], true) });

/** What an answered call has on disk, in words, for GET and for POST. */
interface Durability {
  readonly get: string;
  readonly post: string;
}
const both = (words: string): Durability => ({ get: words, post: words });
const DURABILITY = {
  sqlite: {
    get: 'charge committed before the answer (survives a process crash), fsynced within 10 ms',
    post: 'fsync before each answer (group commit)',
  },
  postgres: {
    get: "charge committed before the answer (survives coinop's crash), WAL flushed within 200-600 ms",
    post: 'durable at commit, before the answer',
  },
  everysec: both('fsync once a second: a power cut loses up to 1 s (2 s if the disk lags) of debits and writes'),
  always: both('fsync before each answer (one per event-loop turn)'),
  postgresPeer: both('durable at commit, before the answer'),
} satisfies Record<string, Durability>;

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
  readonly durability: string;
  readonly server: ChildProcess;
  readonly database?: Database;
  readonly options: autocannon.Options;
  readonly samples: Sample[];
}

/** One load of `run` for `seconds`; refuses a run with errors or non-2xx answers (it would not measure the path it names). */
async function measure(run: Run, seconds: number): Promise<Sample> {
  const databaseBefore = run.database?.cpu();
  const cpuBefore = cpuSeconds(run.server.pid);
  const result = await autocannon({ ...run.options, connections: CONNECTIONS, duration: seconds });
  const perRequest = (cpu: number): number => (cpu * 1e6) / result.requests.total;
  const cpuUs = perRequest(cpuSeconds(run.server.pid) - cpuBefore);
  const databaseCpuUs = run.database && databaseBefore ? perRequest(cpuSpent(databaseBefore, run.database.cpu())) : NaN;
  if (result.errors || result.non2xx) throw new Error(`${run.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  const { p50, p99 } = result.latency;
  return { rps: result.requests.average, cpuUs, databaseCpuUs, p50, p99, errors: result.errors, non2xx: result.non2xx };
}

const kvRuns = (
  name: string,
  server: ChildProcess,
  url: string,
  token: string,
  durability: Durability,
  database?: Database,
): Run[] => {
  const headers = { 'x-token': token };
  const run = (method: 'GET' | 'POST', words: string, options: autocannon.Options): Run => ({
    name: `${name} ${method} /kv`,
    durability: words,
    server,
    database,
    options,
    samples: [],
  });
  return [
    run('GET', durability.get, { url: `${url}/kv/bench/key`, headers }),
    run('POST', durability.post, { url: `${url}/kv/bench/key?ttl=3600`, method: 'POST', body: VALUE, headers }),
  ];
};

async function seed(url: string, token: string): Promise<void> {
  const set = await fetch(`${url}/kv/bench/key`, { method: 'POST', body: VALUE, headers: { 'x-token': token } });
  if (!set.ok) throw new Error(`seeding ${url}: ${set.status} ${await set.text()}`);
}

/** A peer server (bench/*-kv-server.mjs) on a free port, with the node flags `npm start` gives coinop, its wallet funded. */
async function startPeer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnPinned([...startFlags(), script], { PORT: String(port), ...env });
  await waitForHttp(`${url}/healthz`);
  return { child, url };
}

/** Every server of the run, started and stopped together; `runs` in the order each round loads them. */
class Servers {
  readonly runs: Run[] = [];
  private readonly services: ChildProcess[] = [];
  private readonly databases: ChildProcess[] = [];
  private logs = 0;

  constructor(private readonly dir: string) {}

  private service(child: ChildProcess): ChildProcess {
    this.services.push(child);
    return child;
  }

  async bare(): Promise<void> {
    const port = await freePort();
    const child = this.service(spawnPinned(['bench/bare-server.mjs'], { PORT: String(port) }));
    await waitForHttp(`http://127.0.0.1:${port}/`);
    this.runs.push({
      name: 'bare node:http',
      durability: 'keeps nothing',
      server: child,
      options: { url: `http://127.0.0.1:${port}/` },
      samples: [],
    });
  }

  /**
   * coinop on `databaseUrl` at `level` (info: the default), its stdout appended to a log file of its own in the
   * scratch folder; `main`: another build's dist/main.js.
   */
  async coinop(
    label: string,
    databaseUrl: string,
    level: 'info' | 'warn',
    durability: Durability,
    database?: Database,
    main?: string,
  ): Promise<void> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const logFile = join(this.dir, `coinop-${++this.logs}.log`);
    const child = this.service(
      await startBuiltService(port, { DATABASE_URL: databaseUrl, LOG_LEVEL: level }, { logFile, main }),
    );
    const token = await fundedToken(url, CREDITS);
    await seed(url, token);
    const name = `coinop ${label}${level === 'info' ? '' : `, LOG_LEVEL=${level}`}`;
    this.runs.push(...kvRuns(name, child, url, token, durability, database));
  }

  /** The Redis peer on a redis-server of its own whose append-only file is fsynced as `fsync` says. */
  async redis(fsync: RedisFsync): Promise<void> {
    const redis = await startRedisServer(join(this.dir, `redis-${fsync}`), fsync);
    this.databases.push(redis.child);
    const token = `bench-${randomUUID()}`;
    const peer = await startPeer('bench/redis-kv-server.mjs', {
      REDIS_URL: redis.url,
      BENCH_TOKEN: token,
      BENCH_CREDITS: String(CREDITS),
    });
    this.service(peer.child);
    await seed(peer.url, token);
    const name = `Redis AOF ${fsync} + Lua`;
    this.runs.push(...kvRuns(name, peer.child, peer.url, token, DURABILITY[fsync], ownRedis(redis.child)));
  }

  /** The PostgreSQL peer, its tables in the scratch schema `databaseUrl` names. */
  async postgresPeer(databaseUrl: string): Promise<void> {
    const token = `bench-${randomUUID()}`;
    const peer = await startPeer('bench/postgres-kv-server.mjs', {
      DATABASE_URL: databaseUrl,
      BENCH_TOKEN: token,
      BENCH_CREDITS: String(CREDITS),
    });
    this.service(peer.child);
    await seed(peer.url, token);
    this.runs.push(...kvRuns('Fastify + PostgreSQL', peer.child, peer.url, token, DURABILITY.postgresPeer, POSTGRES));
  }

  /** Stops the services (the Redis peer deletes its keys as it stops), then the databases they used. */
  async stop(): Promise<void> {
    await Promise.all(this.services.map((child) => stopProcess(child)));
    await Promise.all(this.databases.map((child) => stopProcess(child)));
  }
}

const median = (values: readonly number[]): number => percentiles(values).p50;
const fixed = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(1));

function report(runs: readonly Run[], notes: readonly string[]): void {
  const bareRps = median(runs[0]?.samples.map((s) => s.rps) ?? []);
  const lines = [
    `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, services pinned to core 0${pinningNote}; ${notes.join('; ')}.`,
    "Medians over the rounds; ratio = req/s ÷ the median of bare node:http; server CPU = the server process's user + system time per request;",
    "database CPU = that of the run's own redis-server (its AOF rewrites included) or of every postgres process (a shared server: other clients' work included) per request.",
    'coinop runs as `npm start` does, LOG_LEVEL=info (the default) unless the row says otherwise, its stdout appended to a log file;',
    'it writes its call-log rows after the answer, in batches (a crash loses up to 500 ms of them); the peers write theirs inside the call.',
    'The peers (bench/redis-kv-server.mjs, bench/postgres-kv-server.mjs) run with the same node flags and log nothing. Every call debits one wallet:',
    "the PostgreSQL peer's calls wait in turn for that wallet's row lock, held until each commit's WAL flush.",
  ];
  console.log(`\n${lines.join('\n')}\n`);
  console.log(
    '| run | durability | req/s | ratio to bare | server CPU µs/req | database CPU µs/req | p50 ms | p99 ms | errors | non-2xx |\n' +
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const run of runs) {
    const of = (pick: (s: Sample) => number): number => median(run.samples.map(pick));
    const rps = of((s) => s.rps);
    const sum = (pick: (s: Sample) => number): number => run.samples.reduce((total, s) => total + pick(s), 0);
    console.log(
      `| ${run.name} | ${run.durability} | ${Math.round(rps)} | ${((rps / bareRps) * 100).toFixed(0)} % | ` +
        `${fixed(of((s) => s.cpuUs))} | ${fixed(of((s) => s.databaseCpuUs))} | ` +
        `${of((s) => s.p50)} | ${of((s) => s.p99)} | ${sum((s) => s.errors)} | ${sum((s) => s.non2xx)} |`,
    );
  }
  const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1);
  console.log(
    `\nreq/s in each round\n\n| run | ${rounds.map((i) => `round ${i}`).join(' | ')} |\n| --- |${' ---: |'.repeat(ROUNDS)}`,
  );
  for (const run of runs) console.log(`| ${run.name} | ${run.samples.map((s) => Math.round(s.rps)).join(' | ')} |`);
}

/** PostgreSQL for the run: a scratch schema for each server (coinop at each log level, the peer). */
interface PostgresSchemas {
  readonly info: string;
  readonly warn: string;
  readonly peer: string;
}

/** Runs `run` with `count` scratch schemas of the server at `base` (withPostgresSchema), all dropped afterwards. */
async function withPostgresSchemas<T>(base: string, count: number, run: (urls: string[]) => Promise<T>): Promise<T> {
  const take = (urls: string[]): Promise<T> =>
    urls.length === count ? run(urls) : withPostgresSchema(base, (url) => take([...urls, url]));
  return take([]);
}

/** The other build's dist/main.js from BENCH_BASE_DIST, checked before anything starts. */
function baseMain(): string | undefined {
  const dist = process.env.BENCH_BASE_DIST;
  if (dist === undefined || dist === '') return undefined;
  const main = resolve(dist, 'main.js');
  if (!existsSync(main)) throw new Error(`BENCH_BASE_DIST: ${main} is missing (build that checkout first)`);
  return main;
}

async function bench(dir: string, postgres: PostgresSchemas | undefined): Promise<void> {
  const base = baseMain();
  // PostgreSQL's processes go to the load generator's core for the run: Linux wakes a process on the core of the
  // process that woke it, so unpinned backends would run on the measured service's core and make its numbers swing
  // by 2x between runs. Their affinity is restored afterwards (the server is shared). The benchmark's own
  // redis-servers start on that core (startRedisServer).
  const pinned: Pinned[] = postgres ? [pinProcesses('postgres', () => pidsOf('postgres'), 1)] : [];
  const hasRedis = existsSync(REDIS_SERVER);
  const servers = new Servers(dir);
  const notes = await whilePinned(
    pinned,
    () => servers.stop(),
    async () => {
      // Each coinop its own database: a SQLite file, a PostgreSQL schema.
      const sqlite = (name: string): string => `sqlite:${join(dir, `${name}.db`)}`;
      await servers.bare();
      // The defaults first, then the peers, then coinop at LOG_LEVEL=warn and the base build.
      await servers.coinop('SQLite', sqlite('info'), 'info', DURABILITY.sqlite);
      if (postgres) await servers.coinop('PostgreSQL', postgres.info, 'info', DURABILITY.postgres, POSTGRES);
      if (hasRedis) {
        await servers.redis('everysec');
        await servers.redis('always');
      }
      if (postgres) await servers.postgresPeer(postgres.peer);
      await servers.coinop('SQLite', sqlite('warn'), 'warn', DURABILITY.sqlite);
      if (postgres) await servers.coinop('PostgreSQL', postgres.warn, 'warn', DURABILITY.postgres, POSTGRES);
      if (base) {
        await servers.coinop('SQLite (base)', sqlite('base-info'), 'info', DURABILITY.sqlite, undefined, base);
        await servers.coinop('SQLite (base)', sqlite('base-warn'), 'warn', DURABILITY.sqlite, undefined, base);
      }
      for (const run of servers.runs) await measure(run, WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const run of servers.runs) run.samples.push(await measure(run, SECONDS));
      }
    },
  );
  if (hasRedis) notes.push('own redis-servers (AOF, no RDB) on core 1');
  else notes.push(`no Redis rows (${REDIS_SERVER} missing)`);
  if (base) notes.push(`base build: ${base}`);
  report(servers.runs, notes);
}

async function main(): Promise<void> {
  pinSelf(1);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  await withScratchDir('coinop-bench-', (dir) =>
    postgresUrl
      ? withPostgresSchemas(postgresUrl, 3, ([info = '', warn = '', peer = '']) => bench(dir, { info, warn, peer }))
      : bench(dir, undefined),
  );
}

await main();
