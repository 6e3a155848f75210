/**
 * What the access line costs the event loop, in-process: the service's app (on a scratch SQLite database, its logger
 * made by createLogger as the service's is, so to stdout) answers one real metered GET /kv/{bucket}/{key}; its log
 * controller (src/observability/request-observer.ts) is then called on that request and reply BENCH_CALLS times
 * (default 1,000,000) in turns of BENCH_TURN calls (default 4, about what one event-loop turn completes under load),
 * the event loop running between turns so the writes' own callbacks are counted. Rounds at info and at warn (the line
 * off) alternate, BENCH_ROUNDS of each (default 3); the medians are printed on stderr, ns per call: inside the call,
 * the event-loop thread's CPU (the call, its writes' callbacks, the turns) and the process's CPU (the thread pool's
 * writes too). The line's own cost is info minus warn.
 * Usage: npx tsx bench/access-line.bench.ts > /tmp/lines.log   (stdout carries the log lines: send it to a file)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { RequestObserver } from '../src/observability/request-observer.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const TURN = Number(process.env.BENCH_TURN ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Round {
  readonly level: 'info' | 'warn';
  readonly callNs: number;
  readonly loopCpuNs: number;
  readonly processCpuNs: number;
}

const cpuNs = ({ user, system }: NodeJS.CpuUsage): number => (user + system) * 1000;
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'coinop-access-line-'));
try {
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'coinop.db')}`,
    DATA_DIR: dir,
    LOG_LEVEL: 'info',
    SMTP_PORT: '0',
    DNS_SERVERS: '127.0.0.1:9',
  });
  const deps = createDeps(config);
  await deps.store.migrate();

  // The controller Fastify calls, and the request and reply of the real GET, taken as it completes.
  let seen: { observer: RequestObserver; request: FastifyRequest; reply: FastifyReply } | undefined;
  const prototype = RequestObserver.prototype;
  const completed = Object.getOwnPropertyDescriptor(prototype, 'requestCompleted')!;
  Object.defineProperty(prototype, 'requestCompleted', {
    ...completed,
    value(this: RequestObserver, ...args: Parameters<RequestObserver['requestCompleted']>) {
      if (args[1].method === 'GET') seen = { observer: this, request: args[1], reply: args[2] };
      (completed.value as RequestObserver['requestCompleted']).apply(this, args);
    },
  });
  const app = await buildApp(deps);
  const created = await app.inject({
    method: 'POST',
    url: '/token',
    payload: 'token=new',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const token = created.body;
  await app.inject({ method: 'POST', url: '/kv/bench/key', headers: { 'x-token': token }, payload: 'a value' });
  const got = await app.inject({ method: 'GET', url: '/kv/bench/key', headers: { 'x-token': token } });
  if (got.statusCode !== 200 || seen === undefined) throw new Error(`the GET answered ${got.statusCode}: ${got.body}`);
  Object.defineProperty(prototype, 'requestCompleted', completed);
  const { observer, request, reply } = seen;

  const round = async (level: 'info' | 'warn'): Promise<Round> => {
    deps.logger.level = level;
    const loopBefore = process.threadCpuUsage();
    const processBefore = process.cpuUsage();
    let inCalls = 0n;
    for (let done = 0; done < CALLS; done += TURN) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < TURN; i++) observer.requestCompleted(null, request, reply);
      inCalls += process.hrtime.bigint() - start;
      await nextTurn();
    }
    await sleep(300); // the last writes land within the round
    return {
      level,
      callNs: Number(inCalls) / CALLS,
      loopCpuNs: cpuNs(process.threadCpuUsage(loopBefore)) / CALLS,
      processCpuNs: cpuNs(process.cpuUsage(processBefore)) / CALLS,
    };
  };

  await round('info'); // warm-up
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order: ('info' | 'warn')[] = i % 2 === 0 ? ['info', 'warn'] : ['warn', 'info'];
    for (const level of order) rounds.push(await round(level));
  }
  const summary = (level: 'info' | 'warn') => {
    const of = rounds.filter((r) => r.level === level);
    return {
      level,
      callNs: median(of.map((r) => r.callNs)),
      loopCpuNs: median(of.map((r) => r.loopCpuNs)),
      processCpuNs: median(of.map((r) => r.processCpuNs)),
    };
  };
  const info = summary('info');
  const warn = summary('warn');
  const line = {
    calls: CALLS,
    turn: TURN,
    rounds: ROUNDS,
    info,
    warn,
    lineNs: {
      call: info.callNs - warn.callNs,
      loopCpu: info.loopCpuNs - warn.loopCpuNs,
      processCpu: info.processCpuNs - warn.processCpuNs,
    },
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  deps.logger.level = 'warn';
  await app.close();
  await deps.ledger.flush();
  await deps.outbound.close();
  await deps.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
