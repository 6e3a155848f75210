/**
 * Filtered lists on large tables (see docs/limits.md, "Filtered lists"): a wallet whose call log holds a week of the
 * free budget (60 rows a minute: about 600,000 rows) and a webhook with 200,000 deliveries, built in one statement
 * each; then the time of GET /token/logs's page (logPage) and GET /webhook/{id}/deliveries's list (listDeliveries),
 * unfiltered and filtered on a status nothing has. On SQLite that time is the event loop's (better-sqlite3 reads
 * synchronously); on PostgreSQL it is the call's latency. Then, as a client sees it: the built service (`npm run
 * build` first) on that database, 4 clients calling GET /token/logs?n=100 (then with &status=599) in a loop on the
 * week-long wallet for BENCH_SECONDS, and the latency of GET /healthz meanwhile.
 *
 * Usage: npx tsx bench/filtered-lists.bench.ts
 *   BENCH_LOG_ROWS=600000 BENCH_DELIVERIES=200000 BENCH_CALLS=20
 *   BENCH_DATABASE_URL=postgres://…   run on PostgreSQL too (a scratch schema)
 */
import {
  freePort,
  fundedToken,
  onEachStore,
  percentiles,
  startBuiltService,
  stopProcess,
  withScratchDir,
} from './lib.js';
import { sha256Hex } from '../src/lib/hash.js';
import { openStore } from '../src/store/open-store.js';
import { insertNumberedRows } from '../test/helpers/numbered-rows.js';
import type { Store } from '../src/store/store.js';
import { logPage } from '../src/features/logs/logs.page.js';
import type { PageRequest } from '../src/features/logs/logs.page.js';
import { NEWEST } from '../src/features/logs/logs.cursor.js';
import { LOG_RETENTION_MS } from '../src/ledger/log-entry.js';
import { DELIVERY_RETENTION_MS, listDeliveries } from '../src/delivery-core/index.js';
import type { DeliveryQuery } from '../src/delivery-core/history.js';

const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 600_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 200_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = 4;
const WEBHOOK = 'bench-hook';

async function seed(store: Store, now: number, wallet: number): Promise<void> {
  const step = Math.floor((LOG_RETENTION_MS - 60_000) / LOG_ROWS);
  // One entry a batch, as a quiet wallet's are (src/ledger/log-batches.ts): the most batches a page can walk.
  const at = `(${now - LOG_RETENTION_MS + 30_000} + i * ${step})`;
  await insertNumberedRows(
    store,
    'log_batches',
    'wallet_id, endpoint, first_at, last_at, entry_count, entries',
    LOG_ROWS,
    `${wallet}, 'token', ${at}, ${at}, 1, '[["bench-' || i || '","GET","/token/logs?n=100",200,1,null,' || ${at} || ',0,0,null,null]]'`,
  );
  const gap = Math.floor((DELIVERY_RETENTION_MS - 60_000) / DELIVERIES);
  await insertNumberedRows(
    store,
    'deliveries',
    'id, wallet_id, webhook_id, trigger, created_at, status, attempts, url, cost, max_attempts',
    DELIVERIES,
    `'msg_bench_' || i, ${wallet}, '${WEBHOOK}', 'schedule', ${now - DELIVERY_RETENTION_MS + 30_000} + i * ${gap}, 'success', 1, 'https://example.com/', 1, 1`,
  );
}

async function timed(call: () => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  const p = percentiles(times);
  return `p50 ${p.p50.toFixed(1)} ms, max ${p.max.toFixed(1)} ms`;
}

/** GET /healthz's latency while CLIENTS clients call `path` in a loop for SECONDS, and those calls' own. */
async function healthzUnderLoad(url: string, token: string, path: string): Promise<string> {
  const until = Date.now() + SECONDS * 1000;
  const calls: number[] = [];
  const health: number[] = [];
  const client = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { 'x-token': token } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      calls.push(performance.now() - started);
    }
  };
  const probe = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([...Array.from({ length: CLIENTS }, client), probe()]);
  const c = percentiles(calls);
  const h = percentiles(health);
  return `calls p50 ${c.p50.toFixed(1)} ms (${calls.length}); /healthz p50 ${h.p50.toFixed(1)} ms, max ${h.max.toFixed(1)} ms`;
}

await withScratchDir('coinop-filtered-', (dir) =>
  onEachStore(dir, async (label, databaseUrl) => {
    const store = openStore(databaseUrl);
    await store.migrate();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = await startBuiltService(port, { DATABASE_URL: databaseUrl });
    try {
      const token = await fundedToken(url, 1000);
      const wallet = (
        await store.read.get<{ id: number }>('SELECT id FROM wallets WHERE hash = $1', [sha256Hex(token)])
      )?.id as number;
      const now = Date.now();
      const started = performance.now();
      await seed(store, now, wallet);
      console.log(
        `${label}: ${LOG_ROWS} log rows, ${DELIVERIES} deliveries seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const page = (extra: Partial<PageRequest>) => () =>
        logPage(store, { walletId: wallet, n: 100, before: NEWEST, since: now - LOG_RETENTION_MS, ...extra });
      const list = (extra: Partial<DeliveryQuery>) => () =>
        listDeliveries(store, {
          walletId: wallet,
          webhookId: WEBHOOK,
          limit: 100,
          expiredAt: now - DELIVERY_RETENTION_MS,
          ...extra,
        });
      console.log(`  GET /token/logs?n=100                      ${await timed(page({}))}`);
      console.log(
        `  GET /token/logs?n=100&status=599           ${await timed(page({ status: { from: 599, to: 600 } }))}`,
      );
      console.log(`  GET /token/logs?n=100&path=/nothing        ${await timed(page({ pathPrefix: '/nothing' }))}`);
      console.log(`  GET /webhook/{id}/deliveries?n=100         ${await timed(list({}))}`);
      console.log(`  GET /webhook/{id}/deliveries?status=failure ${await timed(list({ status: 'failure' }))}`);
      console.log(`  GET /webhook/{id}/deliveries?status=success ${await timed(list({ status: 'success' }))}`);
      // Unfiltered first: what the host allows, for comparison.
      for (const path of ['/token/logs?n=100', '/token/logs?n=100&status=599'])
        console.log(`  service, ${CLIENTS} clients of GET ${path}: ${await healthzUnderLoad(url, token, path)}`);
    } finally {
      await stopProcess(service);
      await store.close();
    }
  }),
);
