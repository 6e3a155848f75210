/**
 * Delivery retries under load (docs/reference.md#delivery-retries): 10,000 scheduled runs due at the same minute, fired by a real coinop
 * process (src/main.ts, pinned to core 0) at a local HTTPS receiver (this process, core 1) that answers 503 to the
 * first attempt of every other run and 204 to the rest. Every webhook opts into retries; DELIVERY_RETRY_BASE_MS is
 * small, so the retry worker sends the second attempts within a second or so. Checks that every run ends delivered,
 * that no delivery got two successful attempts, and that the failed half got exactly one retry; reports the time
 * from the minute until the last delivery succeeded.
 *
 * Usage: npx tsx bench/deliveries.bench.ts
 *   BENCH_DELIVERIES=10000            how many deliveries
 *   BENCH_RETRY_BASE_MS=200           DELIVERY_RETRY_BASE_MS of the service
 *   BENCH_DATABASE_URL=postgres://…   run on PostgreSQL too (a scratch schema)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinSelf, pinningNote, onEachStore, withScratchDir, startSourceService, stopProcess } from './lib.js';
import { createTestCertificates, startHttpsReceiver } from '../test/helpers/https-receiver.js';
import { openStore } from '../src/store/open-store.js';
import { sha256Hex } from '../src/lib/hash.js';
import { MINUTE } from '../src/lib/time.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const RETRY_BASE_MS = Number(process.env.BENCH_RETRY_BASE_MS ?? 200);
const WALLETS = Math.max(1, Math.ceil(DELIVERIES / 100)); // at most 100 webhooks per wallet (docs/contract.md#webhooks)
const LEAD_MS = 8_000;
const WAIT_AFTER_MS = 55_000; // the schedules fire again a minute later: the bench ends before

interface Result {
  label: string;
  delivered: number;
  missing: number;
  /** Deliveries that got a successful attempt more than once. */
  twice: number;
  attempts: number;
  /** Of the half failed once: how many got exactly one retry. */
  retriedOnce: number;
  allDeliveredMs: number;
}

/** Wallets with plenty of credits and DELIVERIES webhooks (retries on: 3 attempts after the first) due at `minute`. */
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
          [sha256Hex(`bench-deliveries-${minute}-${w}`), 1_000_000, now],
        );
        if (row !== undefined) walletIds.push(row.id);
      }
    });
    for (let start = 0; start < DELIVERIES; start += 1000) {
      await store.write(async (tx) => {
        for (let i = start; i < Math.min(DELIVERIES, start + 1000); i++) {
          await tx.run(
            `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, signing_secret, cron, timezone, active, next_run_at, created_at, updated_at, retry_attempts)
             VALUES ($1, $2, $3, '{}', '', '* * * * *', 'UTC', 1, $4, $5, $5, 3)`,
            [walletIds[i % WALLETS], `d${i}`, url, minute, now],
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
  /** Per delivery id: its webhook, attempts seen, successes answered. */
  const seen = new Map<string, { webhookId: string; attempts: number; successes: number }>();
  let delivered = 0;
  let lastSuccessAt = 0;
  let done: () => void = () => undefined;
  const allDelivered = new Promise<void>((resolve) => (done = resolve));
  const receiver = await startHttpsReceiver({
    certificates,
    responder: (request) => {
      const id = String(request.headers['webhook-id']);
      const body = JSON.parse(request.text) as { webhookId: string };
      request.body = Buffer.alloc(0);
      const entry = seen.get(id) ?? { webhookId: body.webhookId, attempts: 0, successes: 0 };
      seen.set(id, entry);
      entry.attempts += 1;
      const failOnce = Number(body.webhookId.slice(1)) % 2 === 0 && entry.attempts === 1;
      if (failOnce) return { status: 503 };
      entry.successes += 1;
      if (entry.successes === 1) {
        delivered += 1;
        lastSuccessAt = Date.now();
        if (delivered >= DELIVERIES) done();
      }
      return { status: 204 };
    },
  });
  const service = await startSourceService({
    DATABASE_URL: databaseUrl,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    NODE_EXTRA_CA_CERTS: caFile,
    DELIVERY_RETRY_BASE_MS: String(RETRY_BASE_MS),
  });
  try {
    const minute = Math.ceil((Date.now() + LEAD_MS) / MINUTE) * MINUTE;
    await seed(databaseUrl, receiver.url('/delivery', '127.0.0.1'), minute);
    console.log(
      `${label}: ${DELIVERIES} deliveries due at ${new Date(minute).toISOString()}, half failing once, waiting…`,
    );
    await Promise.race([
      allDelivered,
      new Promise((resolve) => setTimeout(resolve, minute - Date.now() + WAIT_AFTER_MS)),
    ]);
    const entries = [...seen.values()];
    const failedOnce = entries.filter((e) => Number(e.webhookId.slice(1)) % 2 === 0);
    return {
      label,
      delivered,
      missing: DELIVERIES - new Set(entries.filter((e) => e.successes > 0).map((e) => e.webhookId)).size,
      twice: entries.filter((e) => e.successes > 1).length,
      attempts: entries.reduce((sum, e) => sum + e.attempts, 0),
      retriedOnce: failedOnce.filter((e) => e.attempts === 2).length,
      allDeliveredMs: lastSuccessAt - minute,
    };
  } finally {
    await stopProcess(service);
    await receiver.close();
  }
}

async function main(): Promise<void> {
  pinSelf(1);
  const certificates = createTestCertificates();
  const results = await withScratchDir('coinop-deliveries-bench-', async (dir) => {
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, certificates.caPem);
    return onEachStore(dir, (label, url) => benchOnce(label, url, caFile, certificates));
  });
  console.log(
    `\n${DELIVERIES} scheduled deliveries due in one minute, every other one answered 503 once, DELIVERY_RETRY_BASE_MS=${RETRY_BASE_MS}; service on core 0, receiver on core 1${pinningNote}\n`,
  );
  console.log(
    '| store | delivered | missing | delivered twice | attempts | failed half retried once | all delivered after |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.delivered} | ${r.missing} | ${r.twice} | ${r.attempts} | ${r.retriedOnce} / ${Math.ceil(DELIVERIES / 2)} | ${(r.allDeliveredMs / 1000).toFixed(1)} s |`,
    );
  }
}

await main();
