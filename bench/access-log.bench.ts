/**
 * What the access log costs the service: GET /kv/{bucket}/{key} on the real service (SQLite, the default FULL) at
 * LOG_LEVEL=info (one access line per request; the service's stdout goes to a file in the scratch folder, as a
 * service's log goes to a file or a collector, not to a pipe this process would have to drain) and at LOG_LEVEL=warn
 * (no line), loaded at the same time (both pinned to core 0, so they share it and whatever else the machine does), in
 * rounds; the server's CPU µs per request is what to read (req/s swings on a shared machine). With BENCH_BASE_DIR (a built checkout of another revision, its node_modules reachable from it), the same two
 * servers from there too, for a before/after in one run. At the end the info servers are stopped with SIGTERM and
 * their access lines counted against the GETs answered (the lines a graceful stop must not lose).
 * Usage: npm run build && npx tsx bench/access-log.bench.ts  (BENCH_ROUNDS, default 5; BENCH_SECONDS, default 4;
 * BENCH_BASE_DIR, e.g. a `git archive` of main with dist/ built and node_modules linked)
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
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
  startBuiltService,
  stopProcess,
  WARM_UP_SECONDS,
  withScratchDir,
} from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Sample {
  readonly rps: number;
  readonly cpuUs: number;
}

interface Rung {
  readonly name: string;
  readonly tree: string;
  readonly level: 'info' | 'warn';
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  /** The file its stdout goes to. */
  readonly log: string;
  readonly samples: Sample[];
  gets: number;
}

async function startRung(dir: string, tree: string, root: string, level: 'info' | 'warn'): Promise<Rung> {
  const name = `${tree}, LOG_LEVEL=${level}`;
  const file = `${tree}-${level}`.replace(/[^a-z0-9-]/gi, '_');
  const log = join(dir, `${file}.log`);
  const stdout = openSync(log, 'a');
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = await startBuiltService(
      port,
      { DATABASE_URL: `sqlite:${join(dir, `${file}.db`)}`, LOG_LEVEL: level },
      {
        root,
        stdout,
      },
    );
  } finally {
    closeSync(stdout); // the child has its own copy
  }
  const url = `http://127.0.0.1:${port}`;
  const token = await fundedToken(url, CREDITS);
  const set = await fetch(`${url}/kv/bench/key`, {
    method: 'POST',
    body: 'a value of moderate size',
    headers: { 'x-token': token },
  });
  if (!set.ok) throw new Error(`seeding ${name}: ${set.status} ${await set.text()}`);
  return { name, tree, level, child, url, token, log, samples: [], gets: 0 };
}

/** One load of `rung`; refuses a run with errors or non-2xx answers (it would not measure the GET). */
async function measure(rung: Rung, seconds: number): Promise<Sample> {
  const before = cpuSeconds(rung.child.pid);
  const result = await autocannon({
    url: `${rung.url}/kv/bench/key`,
    headers: { 'x-token': rung.token },
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors || result.non2xx)
    throw new Error(`${rung.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  rung.gets += result.requests.total;
  return { rps: result.requests.average, cpuUs: ((cpuSeconds(rung.child.pid) - before) * 1e6) / result.requests.total };
}

const median = (values: readonly number[]): number => percentiles(values).p50;
const fixed = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(1));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The access lines in `rung`'s log that are GETs of the benchmarked key. */
function accessLines(rung: Rung): number {
  let count = 0;
  for (const line of readFileSync(rung.log, 'utf8').split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as { msg?: string; method?: string; route?: string };
    if (entry.msg === 'request' && entry.method === 'GET' && entry.route === '/kv/:bucket/:key') count++;
  }
  return count;
}

async function run(dir: string): Promise<void> {
  const trees: [string, string][] = [['this checkout', '.']];
  const base = process.env.BENCH_BASE_DIR;
  if (base !== undefined) trees.unshift([`base (${base})`, resolve(base)]);
  const rungs: Rung[] = [];
  const loadBefore = load();
  try {
    for (const [tree, root] of trees) {
      for (const level of ['warn', 'info'] as const) rungs.push(await startRung(dir, tree, root, level));
    }
    for (const rung of rungs) await measure(rung, WARM_UP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      // A checkout's two servers are loaded at the same time, so whatever else the machine does falls on both alike
      // (measured one after the other, on a shared machine, their difference drowned in the drift); the checkouts
      // take turns, in another order each round.
      const order = round % 2 === 0 ? trees : [...trees].reverse();
      for (const [tree] of order) {
        const pair = rungs.filter((rung) => rung.tree === tree);
        const samples = await Promise.all(pair.map((rung) => measure(rung, SECONDS)));
        pair.forEach((rung, i) => rung.samples.push(samples[i]!));
      }
    }
  } finally {
    await Promise.all(rungs.map((rung) => stopProcess(rung.child)));
  }
  const loadAfter = load();

  console.log(
    `\nGET /kv, ${CONNECTIONS} connections to each server, ${ROUNDS} rounds of ${SECONDS} s, a checkout's info and warn servers loaded at the same time, servers pinned to core 0${pinningNote};`,
  );
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAfter}; medians over the rounds.`);
  console.log('Δ = CPU at info minus CPU at warn of the same checkout, the median of the per-round differences.\n');
  console.log('| server | req/s | server CPU µs/req | Δ info − warn µs/req | access lines / GETs answered |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const rung of rungs) {
    const warn = rungs.find((r) => r.tree === rung.tree && r.level === 'warn');
    const delta =
      rung.level === 'info' && warn !== undefined
        ? fixed(median(rung.samples.map((s, i) => s.cpuUs - (warn.samples[i]?.cpuUs ?? NaN))))
        : '';
    const lines = rung.level === 'info' ? `${accessLines(rung)} / ${rung.gets}` : '';
    console.log(
      `| ${rung.name} | ${Math.round(median(rung.samples.map((s) => s.rps)))} | ${fixed(median(rung.samples.map((s) => s.cpuUs)))} | ${delta} | ${lines} |`,
    );
  }
  const header = `| server | ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`).join(' | ')} |\n| --- |${' ---: |'.repeat(ROUNDS)}`;
  console.log(`\nserver CPU µs/req in each round\n\n${header}`);
  for (const rung of rungs) console.log(`| ${rung.name} | ${rung.samples.map((s) => fixed(s.cpuUs)).join(' | ')} |`);
}

pinSelf(1);
await withScratchDir('coinop-access-log-', run);
