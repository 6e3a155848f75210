/**
 * KV throughput against a bare node:http server measured in the same run, same core pinning:
 * every server on core 0, the load generator (this process) on core 1.
 * Usage: npm run bench (builds first) (PostgreSQL too when BENCH_DATABASE_URL is set, e.g. postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../test/helpers/server-process.js';
import { sha256Hex } from '../src/lib/hash.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

async function startProcess(args: string[], env: Record<string, string>, probe: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const [command, argv] = pinned(0, process.execPath, args);
  const child = spawn(command, argv, { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}${probe}`);
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, options: autocannon.Options): Promise<Measured> {
  // A short warm-up so the JIT and caches are settled before measuring.
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function benchCoinop(label: string, databaseUrl: string, bare: Measured): Promise<Measured[]> {
  const server = await startProcess(['dist/main.js'], { DATABASE_URL: databaseUrl, SMTP_PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN }, '/healthz');
  try {
    const token = await (await fetch(`${server.url}/token`, { method: 'POST', body: 'token=new', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).text();
    await fetch(`${server.url}/manage/wallets/${sha256Hex(token)}/credit`, {
      method: 'POST',
      body: JSON.stringify({ amount: 1_000_000_000 }),
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
    });
    await fetch(`${server.url}/kv/bench/key`, { method: 'POST', body: 'a value of moderate size', headers: { 'x-token': token } });
    const headers = { 'x-token': token };
    const get = await load(`${label} GET /kv`, { url: `${server.url}/kv/bench/key`, headers });
    const post = await load(`${label} POST /kv`, { url: `${server.url}/kv/bench/key?ttl=3600`, method: 'POST', body: 'a value of moderate size', headers });
    return [get, post].map((m) => ({ ...m, name: `${m.name} (${((m.rps / bare.rps) * 100).toFixed(0)} % of bare)` }));
  } finally {
    await stop(server.child);
  }
}

async function main(): Promise<void> {
  if (hasTaskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const results: Measured[] = [];
  const bareServer = await startProcess(['bench/bare-server.mjs'], {}, '/');
  const bare = await load('bare node:http', { url: bareServer.url });
  await stop(bareServer.child);
  results.push(bare);

  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-'));
  try {
    results.push(...(await benchCoinop('coinop SQLite', `sqlite:${join(dir, 'bench.db')}`, bare)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    const schema = `bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    try {
      results.push(...(await benchCoinop('coinop PostgreSQL', url.toString(), bare)));
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  }

  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, servers pinned to core 0${hasTaskset ? '' : ' (taskset missing: not pinned)'}\n`);
  console.log('| run | req/s | p50 ms | p99 ms | errors | non-2xx |\n| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
}

await main();
