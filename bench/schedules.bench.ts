/**
 * Scheduler load: 10,000 scheduled webhooks due at the same minute, fired by a real coinop process
 * (src/main.ts, pinned to core 0) at a local HTTPS receiver (this process, core 1).
 * Reports the time from the minute until the last callback arrived and the lateness of the runs
 * (executedAt − scheduledFor, and arrival − scheduledFor), and checks every run fired exactly once.
 *
 * Usage: npx tsx bench/schedules.bench.ts
 *   BENCH_SCHEDULES=10000             how many schedules
 *   BENCH_DATABASE_URL=postgres://…   run on PostgreSQL too (a scratch schema)
 *   BENCH_OUTBOUND_CA_FILE=1          trust the receiver through OUTBOUND_CA_FILE instead of NODE_EXTRA_CA_CERTS
 *
 * The receiver's CA reaches the service through NODE_EXTRA_CA_CERTS by default: that is the TLS setup
 * a production instance runs with (no OUTBOUND_CA_FILE). OUTBOUND_CA_FILE builds a TLS context with
 * every system root per connection, about 18 ms of CPU each, which would measure that instead.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  percentiles,
  pinSelf,
  pinningNote,
  onEachStore,
  withScratchDir,
  startSourceService,
  stopProcess,
} from './lib.js';
import type { Percentiles } from './lib.js';
import { createTestCertificates, startHttpsReceiver } from '../test/helpers/https-receiver.js';
import { openStore } from '../src/store/open-store.js';
import { sha256Hex } from '../src/lib/hash.js';
import { MINUTE } from '../src/lib/time.js';

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const WALLETS = Math.max(1, Math.ceil(SCHEDULES / 100)); // at most 100 webhooks per wallet (docs/contract.md#webhooks)
const LEAD_MS = 8_000; // at least this long between inserting the schedules and their minute
const WAIT_AFTER_MS = 120_000;

interface Arrival {
  webhookId: string;
  scheduledFor: number;
  executedAt: number;
  arrivedAt: number;
}

interface Result {
  label: string;
  fired: number;
  duplicates: number;
  missing: number;
  allFiredMs: number;
  executed: Percentiles;
  arrived: Percentiles;
}

/** Wallets with plenty of credits and SCHEDULES webhooks due at `minute`, written straight into the store. */
async function seed(databaseUrl: string, url: string, minute: number): Promise<void> {
  const store = openStore(databaseUrl);
  try {
    await store.migrate();
    const now = Date.now();
    const walletIds: number[] = [];
    await store.write(async (tx) => {
      for (let w = 0; w < WALLETS; w++) {
        const [row] = await tx.all<{ id: number }>(
          'INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3) RETURNING id',
          [sha256Hex(`bench-${minute}-${w}`), 1_000_000, now],
        );
        if (row !== undefined) walletIds.push(row.id);
      }
    });
    for (let start = 0; start < SCHEDULES; start += 1000) {
      await store.write(async (tx) => {
        for (let i = start; i < Math.min(SCHEDULES, start + 1000); i++) {
          await tx.run(
            `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, signing_secret, cron, timezone, active, next_run_at, created_at, updated_at)
             VALUES ($1, $2, $3, '{}', '', '* * * * *', 'UTC', 1, $4, $5, $5)`,
            [walletIds[i % WALLETS], `s${i}`, url, minute, now],
          );
        }
      });
    }
  } finally {
    await store.close();
  }
}

async function benchOnce(
  label: string,
  databaseUrl: string,
  caFile: string,
  certificates: ReturnType<typeof createTestCertificates>,
): Promise<Result> {
  const arrivals: Arrival[] = [];
  let done: () => void = () => undefined;
  const allArrived = new Promise<void>((resolve) => (done = resolve));
  const receiver = await startHttpsReceiver({
    certificates,
    responder: (request) => {
      const body = JSON.parse(request.text) as { webhookId: string; scheduledFor: string; executedAt: string };
      arrivals.push({
        webhookId: body.webhookId,
        scheduledFor: Date.parse(body.scheduledFor),
        executedAt: Date.parse(body.executedAt),
        arrivedAt: Date.now(),
      });
      request.body = Buffer.alloc(0);
      if (arrivals.length >= SCHEDULES) done();
      return { status: 204 };
    },
  });
  const caEnv: Record<string, string> =
    process.env.BENCH_OUTBOUND_CA_FILE === '1' ? { OUTBOUND_CA_FILE: caFile } : { NODE_EXTRA_CA_CERTS: caFile };
  const service = await startSourceService({
    DATABASE_URL: databaseUrl,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    ...caEnv,
  });
  try {
    const minute = Math.ceil((Date.now() + LEAD_MS) / MINUTE) * MINUTE;
    await seed(databaseUrl, receiver.url('/run', '127.0.0.1'), minute);
    console.log(`${label}: ${SCHEDULES} schedules due at ${new Date(minute).toISOString()}, waiting…`);
    await Promise.race([
      allArrived,
      new Promise((resolve) => setTimeout(resolve, minute - Date.now() + WAIT_AFTER_MS)),
    ]);
    const ofMinute = arrivals.filter((a) => a.scheduledFor === minute);
    const ids = new Set(ofMinute.map((a) => a.webhookId));
    if (process.env.BENCH_VERBOSE === '1') {
      const perSecond = new Map<number, number>();
      for (const a of ofMinute)
        perSecond.set(
          Math.floor((a.arrivedAt - minute) / 1000),
          (perSecond.get(Math.floor((a.arrivedAt - minute) / 1000)) ?? 0) + 1,
        );
      console.log(
        'arrivals per second:',
        [...perSecond]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}s:${n}`)
          .join(' '),
      );
    }
    return {
      label,
      fired: ofMinute.length,
      duplicates: ofMinute.length - ids.size,
      missing: SCHEDULES - ids.size,
      allFiredMs: Math.max(...ofMinute.map((a) => a.arrivedAt)) - minute,
      executed: percentiles(ofMinute.map((a) => a.executedAt - a.scheduledFor)),
      arrived: percentiles(ofMinute.map((a) => a.arrivedAt - a.scheduledFor)),
    };
  } finally {
    await stopProcess(service);
    await receiver.close();
  }
}

async function main(): Promise<void> {
  pinSelf(1);
  const certificates = createTestCertificates();
  const results = await withScratchDir('coinop-sched-bench-', async (dir) => {
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, certificates.caPem);
    return onEachStore(dir, (label, url) => benchOnce(label, url, caFile, certificates));
  });

  const ca = process.env.BENCH_OUTBOUND_CA_FILE === '1' ? 'OUTBOUND_CA_FILE' : 'NODE_EXTRA_CA_CERTS';
  console.log(
    `\n${SCHEDULES} schedules due in one minute, ${WALLETS} wallets; service on core 0, receiver on core 1${pinningNote}; CA via ${ca}\n`,
  );
  console.log(
    '| store | fired | duplicates | missing | all fired after | lateness p50 / p99 / max (executedAt) | arrival p50 / p99 / max |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const ms = (p: Percentiles) => `${p.p50} / ${p.p99} / ${p.max} ms`;
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.fired} | ${r.duplicates} | ${r.missing} | ${(r.allFiredMs / 1000).toFixed(1)} s | ${ms(r.executed)} | ${ms(r.arrived)} |`,
    );
  }
}

await main();
