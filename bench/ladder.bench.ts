/**
 * Where the ratio to bare node:http goes, and which µs of CPU stand where: the same load (50 connections) against, in
 * turn, a bare node:http server, a Fastify hello world, bare node:http doing the least any server of the contract
 * does for a metered GET /kv besides the store's work (bench/contract-least-server.mjs), coinop's unmetered GET
 * /healthz, coinop's metered GET /kv/{bucket}/{key} with the store's work taken out (bench/no-store-server.mjs), then
 * with the real charge, the real KV read and the real call log put back one after the other (the last is the whole
 * GET on SQLite with SQLITE_SYNCHRONOUS=NORMAL), the real service on SQLite FULL (the default); then POST /kv the
 * same way: bare node:http doing the contract's least for it (its Δ against the GET's: what Node's reading a body
 * adds), coinop with the store's work taken out, with it all put back on SQLite NORMAL, and the real service on FULL
 * (its Δ: the fsync that makes a set durable).
 * Every coinop rung runs at the defaults users run: LOG_LEVEL=info, one access line per request appended to a log
 * file in the scratch folder; a last SQLite rung runs the real service at LOG_LEVEL=warn, so its Δ is the access
 * log's cost. With
 * BENCH_DATABASE_URL set, also GET /kv on PostgreSQL (a scratch schema) with the call log taken out, the real
 * service there, and its POST /kv.
 * The servers stay up and are loaded in interleaved rounds (each for BENCH_SECONDS, default 4), so the machine's
 * drift hits every rung alike; medians of the rounds are printed. Req/s swings between runs on a shared VM; the
 * server's CPU time per request swings far less, so the Δ column (the µs each step adds) is what to read.
 * Usage: npm run bench:ladder  (BENCH_ROUNDS, default 5; BENCH_SECONDS, default 4; BENCH_DATABASE_URL, e.g.
 * postgres://postgres@127.0.0.1:5432/postgres)
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  BENCH_ADMIN_TOKEN,
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
  stopProcess,
  waitForHttp,
  WARM_UP_SECONDS,
  whilePinned,
  withPostgresSchema,
  withScratchDir,
} from './lib.js';
import type { Pinned } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const postgresPids = (): number[] => pidsOf('postgres');

interface Sample {
  rps: number;
  /** The server process's user + system CPU time per request. */
  cpuUs: number;
  /** That of every postgres process per request (PostgreSQL rungs only, else NaN). */
  databaseCpuUs: number;
  p99: number;
}

interface Rung {
  readonly name: string;
  readonly server: ChildProcess;
  readonly options: autocannon.Options;
  readonly onPostgres?: boolean;
  /** The rung its Δ is taken against, when not the one above. */
  readonly versus?: Rung;
  readonly samples: Sample[];
}

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Every server of the ladder, started and stopped together; coinop's logs go to files in `dir`. */
class Servers {
  private readonly children: ChildProcess[] = [];
  private logs = 0;

  constructor(private readonly dir: string) {}

  /** A new log file for a coinop server, as a user's log file. */
  private logFile(): string {
    this.logs += 1;
    return join(this.dir, `server-${this.logs}.log`);
  }

  private track(child: ChildProcess): ChildProcess {
    this.children.push(child);
    return child;
  }

  /** A bench server script; `logged`: its stdout goes to a log file, as coinop's lines do. */
  async script(script: string, logged = false): Promise<Server> {
    const port = await freePort();
    const log = logged ? openSync(this.logFile(), 'a') : undefined;
    let child: ChildProcess;
    try {
      child = this.track(spawnPinned([script], { PORT: String(port) }, log ?? 'ignore'));
    } finally {
      if (log !== undefined) closeSync(log); // the child has its own copy
    }
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/`);
    return { child, url };
  }

  /** The real service on `databaseUrl` at the defaults (LOG_LEVEL=info), with `env` added. */
  async coinop(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
    const port = await freePort();
    const child = this.track(
      await startBuiltService(
        port,
        { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
        { logFile: this.logFile() },
      ),
    );
    return { child, url: `http://127.0.0.1:${port}` };
  }

  /** The metered app with the store's work taken out but for the `keep` parts (bench/no-store-server.mjs). */
  async noStore(databaseUrl: string, keep: string, env: Record<string, string> = {}): Promise<Server> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const log = openSync(this.logFile(), 'a');
    try {
      this.track(
        spawnPinned(
          [...startFlags(), 'bench/no-store-server.mjs'],
          {
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
            DATABASE_URL: databaseUrl,
            KEEP: keep,
            ...env,
          },
          log,
        ),
      );
    } finally {
      closeSync(log); // the child has its own copy
    }
    const child = this.children.at(-1)!;
    await waitForHttp(`${url}/healthz`);
    return { child, url };
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => stopProcess(child)));
  }
}

/** A funded token of the store behind `server`, with the key set (the real read must find it). */
async function fundedKey(server: Server): Promise<string> {
  const token = await fundedToken(server.url, CREDITS);
  const set = await fetch(`${server.url}/kv/bench/key`, {
    method: 'POST',
    body: 'a value of moderate size',
    headers: { 'x-token': token },
  });
  if (!set.ok) throw new Error(`seeding ${server.url}: ${set.status} ${await set.text()}`);
  return token;
}

/** GET (or, with `write`, POST) /kv/bench/key on `server` with `token` (by default its own, from fundedKey). */
async function kvRung(
  name: string,
  server: Server,
  options: { token?: string; onPostgres?: boolean; write?: boolean; versus?: Rung } = {},
): Promise<Rung> {
  const headers = { 'x-token': options.token ?? (await fundedKey(server)) };
  const write = options.write === true ? { method: 'POST' as const, body: 'a value of moderate size' } : {};
  return {
    name,
    server: server.child,
    options: { url: `${server.url}/kv/bench/key${options.write === true ? '?ttl=3600' : ''}`, headers, ...write },
    onPostgres: options.onPostgres,
    versus: options.versus,
    samples: [],
  };
}

const plainRung = (name: string, server: Server, path = '/'): Rung => ({
  name,
  server: server.child,
  options: { url: `${server.url}${path}` },
  samples: [],
});

async function startRungs(servers: Servers, dir: string, postgresUrl: string | undefined): Promise<Rung[]> {
  const sqlite = (name: string): string => `sqlite:${join(dir, `${name}.db`)}`;
  // The no-store servers run SQLITE_SYNCHRONOUS=NORMAL (their config's default would be FULL), so that the last
  // SQLite step, to the real service on FULL, is the fsync alone.
  const normal = { SQLITE_SYNCHRONOUS: 'NORMAL' };
  const full = await servers.coinop(sqlite('full'), { SQLITE_SYNCHRONOUS: 'FULL' });
  // One token for its GET and POST rungs, as the store limits new tokens per address.
  const fullToken = await fundedKey(full);
  // The floor's and the whole path's servers take GET and POST, each with one token (new tokens are limited per address).
  const floor = await servers.noStore(sqlite('none'), '', normal);
  const floorToken = await fundedKey(floor);
  const whole = await servers.noStore(sqlite('log'), 'charge,read,write,log', normal);
  const wholeToken = await fundedKey(whole);
  const getFloor = await kvRung('coinop GET /kv, store work taken out (SQLite NORMAL)', floor, { token: floorToken });
  const least = await servers.script('bench/contract-least-server.mjs', true);
  const leastToken = 'coin_contract-least-bench-token';
  const getLeast = await kvRung("node:http doing the contract's least for GET /kv (no store)", least, {
    token: leastToken,
  });
  const rungs = [
    plainRung('bare node:http', await servers.script('bench/bare-server.mjs')),
    plainRung('Fastify hello world', await servers.script('bench/fastify-hello.mjs')),
    getLeast,
    plainRung('coinop GET /healthz (no metering)', full, '/healthz'),
    getFloor,
    await kvRung('+ real charge', await servers.noStore(sqlite('charge'), 'charge', normal)),
    await kvRung('+ real KV read', await servers.noStore(sqlite('read'), 'charge,read,write', normal)),
    await kvRung('+ real call log: the whole GET, SQLite NORMAL', whole, { token: wholeToken }),
    await kvRung('coinop GET /kv, SQLite FULL (the default: the real service)', full, { token: fullToken }),
    await kvRung(
      'coinop GET /kv, the same at LOG_LEVEL=warn (no access log)',
      await servers.coinop(sqlite('warn'), {
        SQLITE_SYNCHRONOUS: 'FULL',
        LOG_LEVEL: 'warn',
      }),
    ),
    await kvRung("node:http doing the contract's least for POST /kv (no store; Δ against its GET)", least, {
      token: leastToken,
      write: true,
      versus: getLeast,
    }),
    await kvRung('coinop POST /kv, store work taken out (SQLite NORMAL)', floor, { token: floorToken, write: true }),
    await kvRung('+ real charge, set and call log: the whole POST, SQLite NORMAL', whole, {
      token: wholeToken,
      write: true,
    }),
    await kvRung('coinop POST /kv, SQLite FULL (the default: the real service)', full, {
      token: fullToken,
      write: true,
    }),
  ];
  if (postgresUrl !== undefined) {
    // Both on one schema: one token for both, as the store limits new tokens per address.
    const withoutLog = await servers.noStore(postgresUrl, 'charge,read,write');
    const token = await fundedKey(withoutLog);
    rungs.push(await kvRung('coinop GET /kv, PostgreSQL, call log taken out', withoutLog, { token, onPostgres: true }));
    const real = await servers.coinop(postgresUrl);
    rungs.push(await kvRung('coinop GET /kv, PostgreSQL (the real service)', real, { token, onPostgres: true }));
    rungs.push(await kvRung('coinop POST /kv, PostgreSQL', real, { token, onPostgres: true, write: true }));
  }
  return rungs;
}

/** One load of `rung` for `seconds`; refuses a run with errors or non-2xx answers (it would not measure the path it names). */
async function measure(rung: Rung, seconds: number): Promise<Sample> {
  const databaseBefore = cpuByPid(rung.onPostgres ? postgresPids() : []);
  const cpuBefore = cpuSeconds(rung.server.pid);
  const result = await autocannon({ ...rung.options, connections: CONNECTIONS, duration: seconds });
  const perRequest = (cpu: number): number => (cpu * 1e6) / result.requests.total;
  const cpuUs = perRequest(cpuSeconds(rung.server.pid) - cpuBefore);
  const databaseCpuUs = rung.onPostgres ? perRequest(cpuSpent(databaseBefore, cpuByPid(postgresPids()))) : NaN;
  if (result.errors || result.non2xx)
    throw new Error(`${rung.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return { rps: result.requests.average, cpuUs, databaseCpuUs, p99: result.latency.p99 };
}

const median = (values: readonly number[]): number => percentiles(values).p50;
const fixed = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(1));
const signed = (value: number): string =>
  Number.isNaN(value) ? '–' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
/** The median over the rounds of `pick(rung) − pick(above)`, each round against itself (the drift cancels). */
const delta = (rung: Rung, above: Rung | undefined, pick: (s: Sample) => number): number =>
  above === undefined ? NaN : median(rung.samples.map((s, i) => pick(s) - pick(above.samples[i] ?? s)));

function report(rungs: readonly Rung[], notes: readonly string[]): void {
  const bareRps = median(rungs[0]?.samples.map((s) => s.rps) ?? []);
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, servers pinned to core 0${pinningNote}${notes.map((note) => `; ${note}`).join('')};`,
  );
  console.log(
    "medians over the rounds; ratio = req/s ÷ that of bare node:http; server CPU = the server process's user + system time per request;",
  );
  console.log(
    'Δ = server CPU minus that of the rung above (or the one the rung names), the median of the per-round differences ("db" the same for the database CPU);',
  );
  console.log(
    "database CPU = that of every postgres process per request (a shared server: other clients' work included).\n",
  );
  console.log(
    '| rung | req/s | ratio to bare | server CPU µs/req | Δ µs vs the rung above | database CPU µs/req | p99 ms |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  rungs.forEach((rung, i) => {
    const of = (pick: (s: Sample) => number): number => median(rung.samples.map(pick));
    const above = rung.versus ?? rungs[i - 1];
    const rps = of((s) => s.rps);
    const databaseDelta =
      rung.onPostgres && above?.onPostgres ? ` (db ${signed(delta(rung, above, (s) => s.databaseCpuUs))})` : '';
    console.log(
      `| ${rung.name} | ${Math.round(rps)} | ${((rps / bareRps) * 100).toFixed(0)} % | ${fixed(of((s) => s.cpuUs))} | ` +
        `${signed(delta(rung, above, (s) => s.cpuUs))}${databaseDelta} | ${fixed(of((s) => s.databaseCpuUs))} | ${of((s) => s.p99)} |`,
    );
  });
  const header = `| rung | ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`).join(' | ')} |\n| --- |${' ---: |'.repeat(ROUNDS)}`;
  console.log(`\nreq/s in each round\n\n${header}`);
  for (const rung of rungs) console.log(`| ${rung.name} | ${rung.samples.map((s) => Math.round(s.rps)).join(' | ')} |`);
  console.log(`\nserver CPU µs/req in each round\n\n${header}`);
  for (const rung of rungs) console.log(`| ${rung.name} | ${rung.samples.map((s) => fixed(s.cpuUs)).join(' | ')} |`);
}

async function ladder(dir: string, postgresUrl: string | undefined): Promise<void> {
  // PostgreSQL goes to the load generator's core for the run (see kv.bench.ts: woken on the measured service's core,
  // its backends would make the numbers swing); its affinity is restored afterwards (it is shared).
  const pinned: Pinned[] = postgresUrl === undefined ? [] : [pinProcesses('postgres', postgresPids, 1)];
  const servers = new Servers(dir);
  let rungs: Rung[] = [];
  const notes = await whilePinned(
    pinned,
    () => servers.stop(),
    async () => {
      rungs = await startRungs(servers, dir, postgresUrl);
      for (const rung of rungs) await measure(rung, WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const rung of rungs) rung.samples.push(await measure(rung, SECONDS));
      }
    },
  );
  report(rungs, notes);
}

async function main(): Promise<void> {
  pinSelf(1);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  await withScratchDir('coinop-ladder-', (dir) =>
    postgresUrl ? withPostgresSchema(postgresUrl, (url) => ladder(dir, url)) : ladder(dir, undefined),
  );
}

await main();
