/**
 * Where the ratio to bare node:http goes: the same load (50 connections) against, in turn,
 * a bare node:http server, a Fastify hello world, coinop's unmetered GET /healthz, coinop's metered
 * GET /kv/{bucket}/{key} with the store's work taken out (bench/no-store-server.mjs), and the real
 * GET /kv/{bucket}/{key} on SQLite with SQLITE_SYNCHRONOUS=NORMAL and FULL (the default).
 * The servers stay up and are loaded in interleaved rounds (each for BENCH_SECONDS, default 4),
 * so the machine's drift hits every rung alike; medians of the rounds are printed.
 * Usage: npm run bench:ladder  (BENCH_ROUNDS, default 5; BENCH_SECONDS, default 4)
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  freePort,
  fundedToken,
  newToken,
  percentiles,
  pinSelf,
  pinningNote,
  spawnPinned,
  startBuiltService,
  startFlags,
  stopProcess,
  waitForHttp,
  withScratchDir,
} from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;

interface Rung {
  name: string;
  options: autocannon.Options;
  samples: { rps: number; p99: number }[];
}

async function startScript(script: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawnPinned([script], { PORT: String(port) });
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url);
  return { child, url };
}

/** A coinop on its own SQLite file, with a funded token and one key set. */
async function startCoinop(dir: string, synchronous: string): Promise<{ child: ChildProcess; url: string; token: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startBuiltService(port, { DATABASE_URL: `sqlite:${join(dir, `${synchronous}.db`)}`, SQLITE_SYNCHRONOUS: synchronous });
  const token = await fundedToken(url, 1_000_000_000);
  await fetch(`${url}/kv/bench/key`, { method: 'POST', body: 'a value of moderate size', headers: { 'x-token': token } });
  return { child, url, token };
}

/** The metered app with the store's work taken out, on its own SQLite file for tokens, with a new token. */
async function startNoStore(dir: string): Promise<{ child: ChildProcess; url: string; token: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnPinned([...startFlags(), 'bench/no-store-server.mjs'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${join(dir, 'no-store.db')}`,
  });
  await waitForHttp(`${url}/healthz`);
  return { child, url, token: await newToken(url) };
}

const median = (values: readonly number[]): number => percentiles(values).p50;

async function main(): Promise<void> {
  pinSelf(1);
  await withScratchDir('coinop-ladder-', async (dir) => {
    const bare = await startScript('bench/bare-server.mjs');
    const fastify = await startScript('bench/fastify-hello.mjs');
    const noStore = await startNoStore(dir);
    const full = await startCoinop(dir, 'FULL');
    const normal = await startCoinop(dir, 'NORMAL');
    const rungs: Rung[] = [
      { name: 'bare node:http', options: { url: bare.url }, samples: [] },
      { name: 'Fastify hello world', options: { url: fastify.url }, samples: [] },
      { name: 'coinop GET /healthz (no metering)', options: { url: `${full.url}/healthz` }, samples: [] },
      { name: 'coinop GET /kv, store work taken out', options: { url: `${noStore.url}/kv/bench/key`, headers: { 'x-token': noStore.token } }, samples: [] },
      { name: 'coinop GET /kv, SQLite NORMAL', options: { url: `${normal.url}/kv/bench/key`, headers: { 'x-token': normal.token } }, samples: [] },
      { name: 'coinop GET /kv, SQLite FULL', options: { url: `${full.url}/kv/bench/key`, headers: { 'x-token': full.token } }, samples: [] },
    ];
    try {
      for (const rung of rungs) await autocannon({ ...rung.options, connections: CONNECTIONS, duration: 2 });
      for (let round = 0; round < ROUNDS; round++) {
        for (const rung of rungs) {
          const result = await autocannon({ ...rung.options, connections: CONNECTIONS, duration: SECONDS });
          if (result.errors || result.non2xx) throw new Error(`${rung.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
          rung.samples.push({ rps: result.requests.average, p99: result.latency.p99 });
        }
      }
    } finally {
      await Promise.all([bare, fastify, noStore, full, normal].map(({ child }) => stopProcess(child)));
    }
    const bareRps = median(rungs[0]?.samples.map((s) => s.rps) ?? []);
    console.log(`\n${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, servers pinned to core 0${pinningNote}; medians\n`);
    console.log('| rung | req/s | ratio to bare | p99 ms | req/s per round |\n| --- | ---: | ---: | ---: | --- |');
    for (const rung of rungs) {
      const rps = median(rung.samples.map((s) => s.rps));
      const rounds = rung.samples.map((s) => Math.round(s.rps)).join(', ');
      console.log(`| ${rung.name} | ${Math.round(rps)} | ${((rps / bareRps) * 100).toFixed(0)} % | ${median(rung.samples.map((s) => s.p99))} | ${rounds} |`);
    }
  });
}

await main();
