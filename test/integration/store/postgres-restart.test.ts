import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import pg from 'pg';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { fundedToken } from '../../helpers/funded-token.js';

/**
 * A service on a PostgreSQL of the test's own, under steady load that includes multi-statement
 * transactions (webhook creation), while the database is stopped, restarted, and frozen: the process
 * must live through it, answer 503 (never 500) while the database is away, and serve again by itself.
 */

const ADMIN_TOKEN = 'admin-token-for-restart-test';
const database: { pg?: PrivatePostgres } = {};
let service: ServerProcess;
/** Credits every answer said it cost (x-cost), summed over every call the tests make. */
let spent = 0;

/** The wallet's balance, read through the operator API (not a metered call). */
async function balance(): Promise<number> {
  const answer = await request(`${service.url}/manage/wallets/${sha256Hex(token)}`, {
    headers: { 'x-admin-token': ADMIN_TOKEN },
    dispatcher: agent,
  });
  return ((await answer.body.json()) as { wallet: number }).wallet;
}

/** One wallet for both tests: token creation is limited to one per client address per 10 s. */
let token: string;
const agent = new Agent({ connections: 32 });

beforeAll(async () => {
  database.pg = await startPrivatePostgres();
  if (database.pg === undefined) return;
  // The inbound relay is on so webhook creation (a mailbox) is a multi-statement write, as it always was here.
  service = await startServerProcess({
    DATABASE_URL: database.pg.url,
    ADMIN_TOKEN,
    INBOUND_SECRET: 'relay-secret-for-restart-test',
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    LOG_LEVEL: 'error',
  });
  token = await fundedToken(service.url, { adminToken: ADMIN_TOKEN, amount: 1_000_000, dispatcher: agent });
}, 60_000);

afterAll(async () => {
  service?.child.kill('SIGKILL');
  await service?.exited;
  await agent.close();
  await database.pg?.destroy();
});

interface Answer {
  readonly status: number;
  readonly ms: number;
  /** The x-cost header: every answer to a token holder carries one, 503s included. */
  readonly cost?: string;
}

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  walletToken: string,
  body?: string,
): Promise<Answer & { text: string }> {
  const started = performance.now();
  const response = await request(`${service.url}${path}`, {
    method,
    headers: {
      'x-token': walletToken,
      ...(body?.startsWith('{') === true ? { 'content-type': 'application/json' } : {}),
    },
    body,
    dispatcher: agent,
  });
  const cost = response.headers['x-cost'];
  if (typeof cost === 'string') spent += Number(cost);
  return {
    status: response.statusCode,
    text: await response.body.text(),
    ms: performance.now() - started,
    ...(typeof cost === 'string' ? { cost } : {}),
  };
}

/** Lanes of webhook create + delete (transactions) and KV set + get, until `stop`; every answer is kept. */
function load(lanes: number) {
  let running = true;
  const answers: Answer[] = [];
  const acknowledged = new Map<string, string>();
  let sequence = 0;
  const lane = async (id: number) => {
    while (running) {
      const n = sequence++;
      const webhookId = `w${id}-${n}`;
      try {
        const created = await call(
          'POST',
          '/webhook',
          token,
          JSON.stringify({ webhookId, url: 'https://127.0.0.1:9/hook' }),
        );
        answers.push(created);
        if (created.status === 200) answers.push(await call('DELETE', `/webhook/${webhookId}`, token));
        const key = `k${id}-${n}`;
        const set = await call('POST', `/kv/restart/${key}`, token, `v-${key}`);
        answers.push(set);
        if (set.status === 200) acknowledged.set(key, `v-${key}`);
      } catch {
        answers.push({ status: 0, ms: 0 }); // no answer at all
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const all = Promise.all(Array.from({ length: lanes }, (_, id) => lane(id)));
  return {
    answers,
    acknowledged,
    stop: async () => {
      running = false;
      await all;
    },
  };
}

/** Seconds until a KV set answers 200 again. */
async function untilServing(limitMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const answer = await call('POST', '/kv/restart/probe', token, 'probe').catch(() => undefined);
    if (answer?.status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Number.POSITIVE_INFINITY;
}

/** The server's processes (postmaster and backends): SIGSTOP freezes it with its sockets open. */
function signalServer(pg: PrivatePostgres, signal: 'STOP' | 'CONT'): void {
  const postmaster = readFileSync(join(pg.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]?.trim() ?? '';
  const children = execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' })
    .split('\n')
    .filter((pid) => pid !== '');
  execFileSync('kill', [`-${signal}`, postmaster, ...children]);
}

/** Runs `sql` on the private server's template1 database (the service's own may refuse connections meanwhile). */
async function onTemplate(server: PrivatePostgres, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.url.replace(/\/postgres$/, '/template1') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL going away under load', () => {
  it('keeps the process alive, answers 503 not 500 while it is down, and serves within 10 s of its return', async (context) => {
    const pg = database.pg;
    if (pg === undefined) return context.skip();
    const before = await balance();
    const spentBefore = spent;
    const traffic = load(32);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const beforeOutage = traffic.answers.length;
    await pg.stop();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const duringOutage = traffic.answers.slice(beforeOutage);
    await pg.start();
    const recoveredMs = await untilServing(20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await traffic.stop();

    expect(service.child.exitCode, service.output().slice(-3000)).toBeNull();
    expect(recoveredMs).toBeLessThan(10_000);
    const statuses = new Set(traffic.answers.map((answer) => answer.status));
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(duringOutage.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    // A 503 says what it cost: 0 when the store went away before the charge (the usual case), never nothing.
    expect(traffic.answers.filter((answer) => answer.status === 503 && answer.cost === undefined)).toEqual([]);
    expect(duringOutage.filter((answer) => answer.status === 503 && answer.cost === '0').length).toBeGreaterThan(0);
    expect(Math.max(...duringOutage.map((answer) => answer.ms))).toBeLessThan(7000);

    const missing: string[] = [];
    for (const [key, value] of traffic.acknowledged) {
      const read = await call('GET', `/kv/restart/${key}`, token);
      if (read.status !== 200 || read.text !== value) missing.push(key);
    }
    expect(missing).toEqual([]);
    // Money is exact: the wallet went down by exactly what the answers said they cost, 503s included.
    expect(before - (await balance())).toBe(spent - spentBefore);
  }, 90_000);

  it('answers 503, not 500, while its database refuses connections (ALLOW_CONNECTIONS false), and serves again after', async (context) => {
    const server = database.pg;
    if (server === undefined) return context.skip();
    await onTemplate(server, 'ALTER DATABASE postgres ALLOW_CONNECTIONS false');
    try {
      await onTemplate(server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'postgres'");
      const answers = [
        await call('POST', '/kv/closed/a', token, 'a'),
        await call('GET', '/kv/closed/a', token),
        await call('POST', '/webhook', token, JSON.stringify({ webhookId: 'closed', url: 'https://127.0.0.1:9/hook' })),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.cost).toBe('0');
      }
    } finally {
      await onTemplate(server, 'ALTER DATABASE postgres ALLOW_CONNECTIONS true');
    }
    expect(await untilServing(20_000)).toBeLessThan(10_000);
    expect(service.child.exitCode).toBeNull();
  }, 60_000);

  it('answers 503 within the statement bound while the database accepts connections but never answers', async (context) => {
    const pg = database.pg;
    if (pg === undefined) return context.skip();
    signalServer(pg, 'STOP');
    try {
      const answers = await Promise.all([
        call('POST', '/kv/frozen/a', token, 'a'),
        call('GET', '/kv/frozen/a', token),
        call('POST', '/webhook', token, JSON.stringify({ webhookId: 'frozen', url: 'https://127.0.0.1:9/hook' })),
      ]);
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.cost).toBe('0');
        expect(answer.ms).toBeLessThan(7000);
      }
    } finally {
      signalServer(pg, 'CONT');
    }
    expect(await untilServing(20_000)).toBeLessThan(10_000);
    expect(service.child.exitCode).toBeNull();
  }, 60_000);
});
