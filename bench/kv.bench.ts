/**
 * KV throughput against a bare node:http server measured in the same run, same core pinning:
 * every server on core 0, the load generator (this process) on core 1. The bare server is measured
 * before and after coinop and the ratios use the mean of both, so drift of the machine during the
 * run does not flatter or punish either side.
 * Usage: npm run bench (builds first) (PostgreSQL too when BENCH_DATABASE_URL is set, e.g. postgres://postgres@127.0.0.1:5432/postgres)
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import {
  cpuSeconds,
  freePort,
  fundedToken,
  pinSelf,
  pinningNote,
  spawnPinned,
  startBuiltService,
  stopProcess,
  onEachStore,
  waitForHttp,
  withScratchDir,
} from './lib.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const VALUE = 'a value of moderate size';

interface Measured {
  name: string;
  rps: number;
  /** The server's CPU time per request: unlike req/s, not capped by the load generator and less moved by the machine's noise. */
  cpuUs: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, server: ChildProcess, options: autocannon.Options): Promise<Measured> {
  // A short warm-up so the JIT and caches are settled before measuring.
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 });
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  const cpuUs = ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / result.requests.total;
  return { name, rps: result.requests.average, cpuUs, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function benchBare(label: string): Promise<Measured> {
  const port = await freePort();
  const child = spawnPinned(['bench/bare-server.mjs'], { PORT: String(port) });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    return await load(label, child, { url: `http://127.0.0.1:${port}/` });
  } finally {
    await stopProcess(child);
  }
}

async function benchCoinop(label: string, databaseUrl: string): Promise<Measured[]> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = await startBuiltService(port, { DATABASE_URL: databaseUrl });
  try {
    const token = await fundedToken(url, 1_000_000_000);
    await fetch(`${url}/kv/bench/key`, { method: 'POST', body: VALUE, headers: { 'x-token': token } });
    const headers = { 'x-token': token };
    const get = await load(`${label} GET /kv`, child, { url: `${url}/kv/bench/key`, headers });
    const post = await load(`${label} POST /kv`, child, { url: `${url}/kv/bench/key?ttl=3600`, method: 'POST', body: VALUE, headers });
    return [get, post];
  } finally {
    await stopProcess(child);
  }
}

async function main(): Promise<void> {
  pinSelf(1);
  const before = await benchBare('bare node:http (before)');
  const coinop = (await withScratchDir('coinop-bench-', (dir) => onEachStore(dir, (label, url) => benchCoinop(`coinop ${label}`, url)))).flat();
  const after = await benchBare('bare node:http (after)');

  const bare = (before.rps + after.rps) / 2;
  const bareCpu = (before.cpuUs + after.cpuUs) / 2;
  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, servers pinned to core 0${pinningNote}; ratio = req/s ÷ mean of the two bare runs;`);
  console.log(
    "CPU = the server process's user + system time per request (PostgreSQL's own processes not included), and bare's CPU ÷ it (what the ratio would be if both were CPU-bound)\n",
  );
  console.log(
    '| run | req/s | ratio to bare | CPU µs/req | bare CPU ÷ CPU | p50 ms | p99 ms | errors | non-2xx |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of [before, ...coinop, after]) {
    const cpuRatio = `${((bareCpu / r.cpuUs) * 100).toFixed(0)} %`;
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${((r.rps / bare) * 100).toFixed(0)} % | ${r.cpuUs.toFixed(1)} | ${cpuRatio} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`,
    );
  }
}

await main();
