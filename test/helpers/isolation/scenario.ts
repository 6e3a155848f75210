/**
 * The tenant-isolation scenario, shared by test/integration/security/tenant-isolation.test.ts and
 * bench/isolation.bench.ts: `src/main.ts` as a real process; a hostile wallet (hostile-tenant.ts, a process of
 * its own, about 70 connections) runs the costliest calls the service sells at once for 20 s, while a victim
 * wallet works on a few connections of its own. Returns the victim's figures, quiet and under attack.
 *
 *   const figures = await runIsolationScenario({ store: 'sqlite', databaseUrl });
 *   violations(figures)      // figures.ts: one line per bound not met
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestCertificates } from '../https-receiver.js';
import { startServerProcess } from '../server-process.js';
import type { ServerProcess } from '../server-process.js';
import { latencies, round } from './figures.js';
import type { IsolationFigures } from './figures.js';
import { concurrentHostileTests, HOSTILE_MIX, hostileConnections } from './protocol.js';
import type { FromHostile, HostileMix, HostileReport, ToHostile } from './protocol.js';
import {
  closeVictimPeers,
  every,
  kvRead,
  pageMetadata,
  pollHealth,
  retryAfterFailure,
  setUpVictim,
  startVictimPeers,
  testDelivery,
} from './victim.js';
import type { VictimClient, VictimPeers } from './victim.js';

const ADMIN_TOKEN = 'admin-token-for-tenant-isolation';
/** Tenants connect from addresses of their own, as they would from their own machines (the token-creation limit counts per address). */
const HOSTILE_ADDRESS = '127.0.0.2';
const VICTIM_ADDRESS = '127.0.0.3';
/** 64 tests with 8 retries, url-to-metadata at 55 credits, KV writes back to back for 20 s: far more than it can spend. */
const HOSTILE_CREDITS = 100_000_000;
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const HOSTILE_ENTRY = fileURLToPath(new URL('./hostile-tenant.ts', import.meta.url));

export interface ScenarioOptions {
  /** A label for the figures (the store). */
  readonly store: string;
  /** DATABASE_URL of the service: a scratch SQLite file or PostgreSQL schema. */
  readonly databaseUrl: string;
  /** How long the hostile wallet floods. Default 20 s. */
  readonly attackMs?: number;
  /** How long past due the victim's retry is waited for before it counts as not arrived. Default 20 s. */
  readonly retryWaitMs?: number;
  /** GET /kv calls of the quiet measure. Default 300. */
  readonly quietCalls?: number;
  readonly mix?: HostileMix;
  /** Progress lines (the bench prints them). */
  readonly log?: (line: string) => void;
}

/** The hostile process and the messages it sends, awaited by type. */
interface Hostile {
  readonly child: ChildProcess;
  send(message: ToHostile): void;
  next<T extends FromHostile['type']>(type: T, timeoutMs: number): Promise<Extract<FromHostile, { type: T }>>;
  readonly retriesInFlight: () => boolean;
}

function forkHostile(): Hostile {
  const child = fork(HOSTILE_ENTRY, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const received: FromHostile[] = [];
  const waiters = new Set<() => void>();
  let failure: string | undefined;
  let inFlight = false;
  child.on('message', (message: FromHostile) => {
    if (message.type === 'failed') failure = message.error;
    if (message.type === 'retries-in-flight') inFlight = true;
    received.push(message);
    for (const wake of waiters) wake();
  });
  child.on('exit', (code) => {
    failure ??= `the hostile tenant exited (${code})`;
    for (const wake of waiters) wake();
  });
  return {
    child,
    send: (message) => child.send(message),
    retriesInFlight: () => inFlight,
    next: (type, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const index = received.findIndex((message) => message.type === type);
          if (index !== -1) {
            cleanup();
            resolve(received.splice(index, 1)[0] as Extract<FromHostile, { type: typeof type }>);
          } else if (failure !== undefined) {
            cleanup();
            reject(new Error(`hostile tenant: ${failure}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`hostile tenant: no ${type} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Resolves when `hostile` reports its retries in flight, or after `limitMs` anyway (the figures then say they were not). */
async function hostileRetries(hostile: Hostile, limitMs: number): Promise<void> {
  await hostile.next('retries-in-flight', limitMs).catch(() => undefined);
}

/** Calls made before the quiet measure and not counted: the first ones of each kind pay for compiling their code paths. */
const WARM_UP_CALLS = 50;

async function quietFigures(
  client: VictimClient,
  peers: VictimPeers,
  calls: number,
): Promise<IsolationFigures['quiet']> {
  for (let i = 0; i < WARM_UP_CALLS; i++) await kvRead(client);
  await testDelivery(client);
  await pageMetadata(client, peers.pages);
  const kv: Array<{ ms: number }> = [];
  for (let i = 0; i < calls; i++) kv.push(await kvRead(client));
  const testMs: number[] = [];
  const metadataMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    testMs.push(round((await testDelivery(client)).ms));
    metadataMs.push(round((await pageMetadata(client, peers.pages)).ms));
  }
  const retry = await retryAfterFailure(client, peers.retries, { waitMs: 10_000, since: Date.now() });
  return { kv: latencies(kv), testMs, metadataMs, retryAfterDueMs: retry.afterDueMs };
}

async function attackFigures(
  service: ServerProcess,
  client: VictimClient,
  peers: VictimPeers,
  hostile: Hostile,
  options: { attackMs: number; retryWaitMs: number; mix: HostileMix },
): Promise<{ attack: IsolationFigures['attack']; report: HostileReport }> {
  const startedAt = Date.now();
  const until = startedAt + options.attackMs;
  hostile.send({ type: 'attack', durationMs: options.attackMs });
  const [kv, healthz, tests, metadata, retry] = await Promise.all([
    every(15, 0, until, () => kvRead(client)),
    pollHealth(service.url, 50, until),
    every(2_000, 1_000, until, () => testDelivery(client)),
    every(1_500, 500, until, () => pageMetadata(client, peers.pages)),
    // The hostile tests time out after 10 s and their retries follow 1 s later: the victim's retry is made once they are in flight.
    hostileRetries(hostile, 15_000).then(async () => {
      const inFlight = hostile.retriesInFlight();
      const figure = await retryAfterFailure(client, peers.retries, { waitMs: options.retryWaitMs, since: startedAt });
      return { ...figure, waitedMs: options.retryWaitMs, hostileRetriesInFlight: inFlight };
    }),
  ]);
  const { report } = await hostile.next('done', 30_000);
  const failures = (results: ReadonlyArray<{ ok: boolean }>) => results.filter((result) => !result.ok).length;
  return {
    report,
    attack: {
      durationMs: options.attackMs,
      kv: latencies(kv, startedAt),
      healthz: latencies(healthz.samples, startedAt),
      testMs: tests.map((result) => round(result.ms)),
      metadataMs: metadata.map((result) => round(result.ms)),
      failures: { kv: failures(kv), healthz: healthz.failures, tests: failures(tests), metadata: failures(metadata) },
      retry,
    },
  };
}

export async function runIsolationScenario(options: ScenarioOptions): Promise<IsolationFigures> {
  const log = options.log ?? (() => undefined);
  const mix = options.mix ?? HOSTILE_MIX;
  const certificates = createTestCertificates();
  const dataDir = mkdtempSync(join(tmpdir(), 'coinop-isolation-'));
  let service: ServerProcess | undefined;
  let hostile: Hostile | undefined;
  let peers: VictimPeers | undefined;
  let client: VictimClient | undefined;
  try {
    const caFile = join(dataDir, 'ca.pem');
    writeFileSync(caFile, certificates.caPem);
    service = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      ADMIN_TOKEN,
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      OUTBOUND_CA_FILE: caFile,
      DELIVERY_RETRY_BASE_MS: '1000',
      LOG_LEVEL: 'warn',
    });
    log(`[${options.store}] service up at ${service.url}`);
    hostile = forkHostile();
    hostile.send({
      type: 'setup',
      serviceUrl: service.url,
      adminToken: ADMIN_TOKEN,
      certificates,
      localAddress: HOSTILE_ADDRESS,
      mix,
      credits: HOSTILE_CREDITS,
    });
    peers = await startVictimPeers(certificates);
    client = await setUpVictim(service.url, { adminToken: ADMIN_TOKEN, localAddress: VICTIM_ADDRESS, peers });
    await hostile.next('ready', 30_000);
    const quiet = await quietFigures(client, peers, options.quietCalls ?? 300);
    log(
      `[${options.store}] quiet: GET /kv p99 ${quiet.kv.p99} ms; attack for ${(options.attackMs ?? 20_000) / 1000} s`,
    );
    const { attack, report } = await attackFigures(service, client, peers, hostile, {
      attackMs: options.attackMs ?? 20_000,
      retryWaitMs: options.retryWaitMs ?? 20_000,
      mix,
    });
    return {
      store: options.store,
      quiet,
      attack,
      hostile: { ...report, connections: hostileConnections(mix), concurrentTests: concurrentHostileTests(mix) },
    };
  } finally {
    await stopChild(service?.child);
    await stopChild(hostile?.child);
    await client?.dispatcher.destroy();
    await closeVictimPeers(peers);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
