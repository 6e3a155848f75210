// The store's share of a KV request without HTTP, for A/B of builds where the HTTP benchmarks are too noisy to
// resolve a µs: the metered GET or POST /kv path as metering and the route drive it (the ledger's charge, the KV read
// from the value cache or the set, the charge's durability, the call-log row), `PER_TURN` requests started in each
// event-loop turn, on a fresh SQLite file, in a process of its own pinned to core 0. Builds (copies of dist/ in the
// repository root) run one after the other, BENCH_ROUNDS times; the medians of the CPU µs per request and of the
// per-round differences against the first build are printed.
// Usage: node bench/store-path.mjs  (BENCH_BUILDS, default "dist": comma-separated directories, e.g.
// "dist-base,dist"; BENCH_PATHS, default "GET,POST"; BENCH_ROUNDS, default 10; BENCH_TURNS, default 2000;
// PER_TURN, default 20; SQLITE_SYNCHRONOUS, default NORMAL: FULL adds the fsyncs, and their noise).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { URL, pathToFileURL } from 'node:url';

const VALUE = 'a value of moderate size';

async function one(dist, kind, turns, perTurn, synchronous) {
  const base = pathToFileURL(`${resolve(dist)}/`);
  const { openStore } = await import(new URL('store/open-store.js', base));
  const { Ledger } = await import(new URL('ledger/ledger.js', base));
  const { KvSets, KvReads, kvValueCacheFor } = await import(new URL('features/kv/kv.queries.js', base));
  const dir = mkdtempSync(join(tmpdir(), 'coinop-store-path-'));
  const store = openStore(`sqlite:${join(dir, 'bench.db')}`, { sqliteSynchronous: synchronous });
  try {
    await store.migrate();
    const ledger = new Ledger(store, { clock: { now: () => Date.now() }, logger: console });
    await store.writeOne('INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3)', [
      'bench',
      1e12,
      Date.now(),
    ]);
    const wallet = await ledger.findWallet('bench');
    const cache = kvValueCacheFor(store);
    const sets = new KvSets(store, cache);
    const reads = new KvReads(store, cache);
    const key = { walletId: wallet.id, bucket: 'bench', key: 'key' };
    const set = () => sets.set({ ...key, value: VALUE, expiresAt: Date.now() + 3_600_000 });
    await set();
    const request = async () => {
      const outcome = await ledger.charge(wallet.id, 1, kind === 'GET');
      if (!outcome.ok) throw new Error('charge refused');
      if (kind === 'GET') {
        if ((await reads.get(key, Date.now())) === undefined) throw new Error('value missing');
      } else await set();
      await outcome.durable;
      ledger.record({
        walletId: wallet.id,
        method: kind,
        path: '/kv/bench/key',
        endpoint: 'kv',
        statusCode: 200,
        responseTimeMs: 0,
        cost: 1,
        balance: outcome.balance,
      });
    };
    const turn = () => Promise.all(Array.from({ length: perTurn }, request));
    for (let i = 0; i < Math.max(50, turns / 5); i++) await turn();
    const before = process.cpuUsage();
    for (let i = 0; i < turns; i++) await turn();
    const spent = process.cpuUsage(before);
    await ledger.flush();
    return (spent.user + spent.system) / (turns * perTurn);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function pinned() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

function main() {
  const builds = (process.env.BENCH_BUILDS ?? 'dist').split(',');
  const paths = (process.env.BENCH_PATHS ?? 'GET,POST').split(',');
  const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
  const args = [
    process.env.BENCH_TURNS ?? '2000',
    process.env.PER_TURN ?? '20',
    process.env.SQLITE_SYNCHRONOUS ?? 'NORMAL',
  ];
  const taskset = pinned();
  for (const kind of paths) {
    const samples = new Map(builds.map((build) => [build, []]));
    for (let round = 0; round < rounds; round++) {
      for (const build of builds) {
        const argv = [process.argv[1], '--one', build, kind, ...args];
        const run = taskset
          ? spawnSync('taskset', ['-c', '0', process.execPath, ...argv], { encoding: 'utf8' })
          : spawnSync(process.execPath, argv, { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`${build} ${kind}: ${run.stderr}`);
        samples.get(build).push(Number(run.stdout.trim()));
      }
    }
    const first = samples.get(builds[0]);
    console.log(
      `\n${kind} /kv, store path only, ${args[1]} per turn, ${args[2]}${taskset ? ', pinned to core 0' : ''}`,
    );
    console.log('| build | CPU µs/req (median) | Δ µs (median of per-round differences) | rounds lower | per round |');
    console.log('| --- | ---: | ---: | ---: | --- |');
    for (const build of builds) {
      const own = samples.get(build);
      const diffs = own.map((value, i) => value - first[i]);
      const lower = build === builds[0] ? '–' : `${diffs.filter((d) => d < 0).length}/${rounds}`;
      const delta = build === builds[0] ? '–' : median(diffs).toFixed(2);
      console.log(
        `| ${build} | ${median(own).toFixed(2)} | ${delta} | ${lower} | ${own.map((v) => v.toFixed(1)).join(', ')} |`,
      );
    }
  }
}

if (process.argv[2] === '--one') {
  const [dist, kind, turns, perTurn, synchronous] = process.argv.slice(3);
  process.stdout.write(`${await one(dist, kind, Number(turns), Number(perTurn), synchronous)}\n`);
} else main();
