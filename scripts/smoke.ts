// A smoke run of the built service on the Node that runs this script (CI runs it on the oldest supported line):
// start dist/main.js on a scratch SQLite database, create a token, a KV round trip, optionally `--seconds N` of mixed
// load (token creation, KV sets and gets, log reads), then SIGTERM. It fails on a refused start, a wrong answer, a 5xx,
// an unhealthy service after the load, an exit other than a graceful 0, or a native abort in the log.
// With --npm-start the service is started the README's way, `npm start` (which checks the Node and dist/ first).
//   node --import tsx scripts/smoke.ts [--seconds 20] [--npm-start]
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATIVE_ABORT = /Assertion failed|Segmentation fault|FATAL ERROR|Aborted|SIGSEGV|SIGABRT|core dumped/i;

function fail(message: string): never {
  throw new Error(`smoke: ${message}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : fail('no port')));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitReady(url: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit !== undefined) fail(`the service exited (${exit}) before it was ready`);
    const status = await fetch(`${url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(100);
  }
  fail('/readyz did not answer 200 within 30 s');
}

async function createToken(url: string): Promise<string | undefined> {
  const response = await fetch(`${url}/token`, { method: 'POST', body: new URLSearchParams({ token: 'new' }) });
  const body = await response.text();
  if (response.status === 429) return undefined; // one creation per client per 10 s: the expected answer under load
  if (response.status !== 200 && response.status !== 201) fail(`POST /token answered ${response.status}: ${body}`);
  return body.trim();
}

/** One KV set, get and log read with `token`; returns how many requests it made. */
async function kvRoundTrip(url: string, token: string, key: string): Promise<number> {
  const value = `value-${key}`;
  const headers = { 'x-token': token };
  const set = await fetch(`${url}/kv/smoke/${key}?ttl=600`, { method: 'POST', headers, body: value });
  if (set.status !== 200 && set.status !== 201) fail(`POST /kv answered ${set.status}: ${await set.text()}`);
  await set.arrayBuffer();
  const get = await fetch(`${url}/kv/smoke/${key}`, { headers });
  const got = await get.text();
  if (get.status !== 200 || got !== value)
    fail(`GET /kv answered ${get.status} ${JSON.stringify(got)}, expected ${value}`);
  const logs = await fetch(`${url}/token/logs?n=5`, { headers });
  if (logs.status !== 200) fail(`GET /token/logs answered ${logs.status}`);
  await logs.arrayBuffer();
  return 3;
}

/** Credits `token`'s wallet through the operator API, so the load is not cut short by an empty wallet. */
async function fund(url: string, adminToken: string, token: string): Promise<void> {
  const hash = createHash('sha256').update(token).digest('hex');
  const response = await fetch(`${url}/manage/wallets/${hash}/credit`, {
    method: 'POST',
    headers: { 'x-admin-token': adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1_000_000 }),
  });
  if (response.status !== 200) fail(`crediting the wallet answered ${response.status}: ${await response.text()}`);
}

/** `seconds` of mixed load from `workers` concurrent loops: KV round trips with log reads, and token creations. */
async function mixedLoad(
  url: string,
  token: string,
  seconds: number,
  workers: number,
): Promise<{ requests: number; tokens: number }> {
  const deadline = Date.now() + seconds * 1000;
  let requests = 0;
  let tokens = 0;
  async function worker(id: number): Promise<void> {
    for (let i = 0; Date.now() < deadline; i++) {
      if (i % 20 === 0) {
        requests += 1;
        if ((await createToken(url)) !== undefined) tokens += 1;
      }
      requests += await kvRoundTrip(url, token, `w${id}-${i % 50}`);
    }
  }
  await Promise.all(Array.from({ length: workers }, (_, id) => worker(id)));
  return { requests, tokens };
}

async function main(): Promise<void> {
  const secondsFlag = process.argv.indexOf('--seconds');
  const seconds = secondsFlag >= 0 ? Number(process.argv[secondsFlag + 1]) : 0;
  if (!(seconds >= 0)) fail('--seconds takes a number');
  const dataDir = mkdtempSync(join(tmpdir(), 'coinop-smoke-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('hex');
  const command = process.argv.includes('--npm-start')
    ? { file: 'npm', args: ['start'] }
    : { file: process.execPath, args: ['--enable-source-maps', '--max-semi-space-size=16', 'dist/main.js'] };
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SMTP_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      DNS_SERVERS: '127.0.0.1:9',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: adminToken,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    await waitReady(url, () =>
      (child.exitCode ?? child.signalCode ?? undefined)?.toString().concat(`:\n${log.slice(-2000)}`),
    );
    const token = (await createToken(url)) ?? fail('the first POST /token was refused with 429');
    let requests = 1 + (await kvRoundTrip(url, token, 'first'));
    let tokens = 1;
    if (seconds > 0) {
      await fund(url, adminToken, token);
      const load = await mixedLoad(url, token, seconds, 8);
      requests += load.requests;
      tokens += load.tokens;
      for (const probe of ['/healthz', '/readyz']) {
        const status = await fetch(`${url}${probe}`).then((r) => r.status);
        if (status !== 200) fail(`${probe} answered ${status} after the load`);
      }
    }
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const { code, signal } = await exit;
    clearTimeout(timer);
    if (NATIVE_ABORT.test(log)) fail(`native abort in the log:\n${log}`);
    if (code !== 0) fail(`exit ${code ?? signal} after SIGTERM (expected a graceful 0):\n${log.slice(-4000)}`);
    console.log(
      `smoke: Node ${process.version}: ${requests} requests (${tokens} tokens), ${seconds} s of load, healthy, graceful exit 0`,
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
