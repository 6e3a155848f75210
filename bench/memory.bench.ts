/**
 * Memory: resident size after start, during 1,000,000 KV sets on one wallet, and after the load stops.
 * Usage: npm run build && npx tsx bench/memory.bench.ts   (BENCH_SETS to change the count)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/server-process.js';
import { sha256Hex } from '../src/lib/hash.js';

const SETS = Number(process.env.BENCH_SETS ?? 1_000_000);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

const rssMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? 'VmRSS: 0 kB';
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
};

const dir = mkdtempSync(join(tmpdir(), 'coinop-mem-'));
const port = await freePort();
const child = spawn(process.execPath, ['dist/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SMTP_PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN, DATABASE_URL: `sqlite:${join(dir, 'mem.db')}` },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {
    if (i > 200) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const pid = child.pid as number;
await new Promise((resolve) => setTimeout(resolve, 2000));
const afterStart = rssMb(pid);
const token = await (await fetch(`${url}/token`, { method: 'POST', body: 'token=new', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).text();
await fetch(`${url}/manage/wallets/${sha256Hex(token)}/credit`, {
  method: 'POST',
  body: JSON.stringify({ amount: SETS * 2 }),
  headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
});

const samples: number[] = [];
const sampler = setInterval(() => samples.push(rssMb(pid)), 5000);
let n = 0;
const result = await autocannon({
  url,
  connections: 50,
  amount: SETS,
  requests: [
    {
      method: 'POST',
      headers: { 'x-token': token },
      // 100,000 distinct keys, each overwritten ten times.
      setupRequest: (request) => ({ ...request, path: `/kv/mem/k${n++ % 100_000}`, body: 'a value of moderate size for the memory run' }),
    },
  ],
});
clearInterval(sampler);
const peak = Math.max(...samples, rssMb(pid));
await new Promise((resolve) => setTimeout(resolve, 15_000));
const settled = rssMb(pid);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(dir, { recursive: true, force: true });

console.log(`sets: ${result.requests.total} (non-2xx ${result.non2xx}, errors ${result.errors}) at ${Math.round(result.requests.average)} req/s`);
console.log(`RSS after start: ${afterStart} MB; during the run (every 5 s): ${samples.join(', ')} MB; peak ${peak} MB; 15 s after: ${settled} MB`);
