/**
 * Memory: resident size after start, during 1,000,000 KV sets on one wallet, and after the load stops, at the
 * defaults (LOG_LEVEL=info, the access log written to a file).
 * Usage: npm run build && npx tsx bench/memory.bench.ts   (BENCH_SETS to change the count; BENCH_DATABASE_URL, a
 * PostgreSQL URL, to run on it instead of a new SQLite file)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, fundedToken, pinSelf, rssMb, startBuiltService, stopProcess } from './lib.js';

const SETS = Number(process.env.BENCH_SETS ?? 1_000_000);

pinSelf(1);
const dir = mkdtempSync(join(tmpdir(), 'coinop-mem-'));
const port = await freePort();
const child = await startBuiltService(
  port,
  // At the defaults: the access log on (LOG_LEVEL=info), into a log file as a user's.
  { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'mem.db')}`, LOG_LEVEL: 'info' },
  { flags: ['--expose-gc', '--import', './bench/gc-on-signal.mjs'], logFile: join(dir, 'service.log') },
);

/** Resident size once a full GC has run: what the service still holds, without garbage V8 has not collected yet. */
async function retainedMb(): Promise<number> {
  child.kill('SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return rssMb(pid);
}
const url = `http://127.0.0.1:${port}`;
const pid = child.pid as number;
await new Promise((resolve) => setTimeout(resolve, 2000));
const afterStart = rssMb(pid);
const retainedAfterStart = await retainedMb();
const token = await fundedToken(url, SETS * 2);

// The sets run in four equal rounds with a pause after each: a leak shows as resident size that keeps
// climbing from one pause to the next; steady state as pauses that level off.
const ROUNDS = 4;
const samples: number[] = [];
const afterRound: number[] = [];
const retained: number[] = [];
const sampler = setInterval(() => samples.push(rssMb(pid)), 5000);
let n = 0;
let total = 0;
let non2xx = 0;
let errors = 0;
const started = Date.now();
for (let round = 0; round < ROUNDS; round++) {
  const result = await autocannon({
    url,
    connections: 50,
    amount: Math.ceil(SETS / ROUNDS),
    requests: [
      {
        method: 'POST',
        headers: { 'x-token': token },
        // 100,000 distinct keys, each overwritten ten times over the whole run.
        setupRequest: (request) => ({
          ...request,
          path: `/kv/mem/k${n++ % 100_000}`,
          body: 'a value of moderate size for the memory run',
        }),
      },
    ],
  });
  total += result.requests.total;
  non2xx += result.non2xx;
  errors += result.errors;
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  afterRound.push(rssMb(pid));
  retained.push(await retainedMb());
}
const seconds = (Date.now() - started) / 1000 - ROUNDS * 11;
clearInterval(sampler);
const peak = Math.max(...samples, ...afterRound);
await stopProcess(child);
rmSync(dir, { recursive: true, force: true });

console.log(`sets: ${total} (non-2xx ${non2xx}, errors ${errors}) at ~${Math.round(total / seconds)} req/s`);
console.log(
  `RSS after start: ${afterStart} MB; 10 s after each quarter of the sets: ${afterRound.join(', ')} MB; peak ${peak} MB`,
);
console.log(`RSS after a full GC: at start ${retainedAfterStart} MB; after each quarter: ${retained.join(', ')} MB`);
console.log(`RSS every 5 s: ${samples.join(', ')} MB`);
