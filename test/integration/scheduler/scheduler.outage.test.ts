import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { createService } from '../../../src/service.js';
import type { Service } from '../../../src/service.js';
import { insertWallet } from '../../../src/ledger/ledger.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { newToken } from '../../../src/lib/ids.js';
import { MINUTE } from '../../../src/lib/time.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { insertSchedules } from './fixtures.js';
import { sleep, until, type WorkerLogLine } from '../../helpers/wait.js';

/**
 * Two whole services (every worker running) on a PostgreSQL of the test's own, which is stopped while
 * scheduled runs are due and while some runs are claimed but not yet charged. After it returns, every
 * run fires exactly once across the two instances, and each worker logged one warning for the outage.
 */

const MINUTE_0 = Date.parse('2026-06-01T12:00:00.000Z');
const SCHEDULES_PER_WALLET = 10;
const CREDITS = 1000;
const WARN = 40;
const ERROR = 50;

describe('scheduled runs across a PostgreSQL outage, two instances', () => {
  const outbound = useOutboundFixture();
  const clock = new ManualClock(MINUTE_0 + 50_000);
  const database: { pg?: PrivatePostgres } = {};
  const services: Array<{ service: Service; logs: WorkerLogLine[] }> = [];

  beforeAll(async () => {
    database.pg = await startPrivatePostgres();
    if (database.pg === undefined) return;
    const config = loadConfig({
      DATABASE_URL: database.pg.url,
      HOST: '127.0.0.1',
      PORT: '0',
      SMTP_PORT: '0',
      DNS_SERVERS: '127.0.0.1:9',
      LOG_LEVEL: 'info',
      ...outbound.env,
    });
    for (let i = 0; i < 2; i++) {
      const logs: WorkerLogLine[] = [];
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => void logs.push(JSON.parse(line) as WorkerLogLine) },
      );
      const service = await createService(config, { deps: { clock, logger } });
      await service.start();
      services.push({ service, logs });
    }
  }, 60_000);

  afterAll(async () => {
    for (const { service } of services.reverse()) await service.stop();
    await database.pg?.destroy();
  }, 60_000);

  it('fires every run due during the outage, and every run claimed but not charged when it began, exactly once after it', async (context) => {
    const postgres = database.pg;
    const [first] = services;
    if (postgres === undefined || first === undefined) return context.skip();
    const deps = first.service.deps;
    const newWallet = async (): Promise<{ token: string; walletId: number }> => {
      const token = newToken();
      await deps.store.write((tx) => insertWallet(tx, sha256Hex(token), CREDITS, clock.now()));
      return { token, walletId: await walletIdOf(deps, token) };
    };
    // Wallet "claimed": runs due at 12:01, claimed, then stuck on their charge when the database goes away.
    // Wallet "outage": runs first due at 12:02, while the database is away.
    const claimed = await newWallet();
    const during = await newWallet();
    const url = outbound.url('/outage');
    await insertSchedules(deps, [
      ...Array.from({ length: SCHEDULES_PER_WALLET }, (_, i) => ({
        walletId: claimed.walletId,
        webhookId: `claimed${i}`,
        url,
        cron: '* * * * *',
        nextRunAt: MINUTE_0 + MINUTE,
      })),
      ...Array.from({ length: SCHEDULES_PER_WALLET }, (_, i) => ({
        walletId: during.walletId,
        webhookId: `during${i}`,
        url,
        cron: '* * * * *',
        nextRunAt: MINUTE_0 + 2 * MINUTE,
      })),
    ]);

    // The "claimed" wallet's row held by another session: the runs' charges wait on it.
    const holder = new pg.Client({ connectionString: postgres.url });
    holder.on('error', () => undefined); // its connection is cut when the server stops
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM wallets WHERE id = $1 FOR UPDATE', [claimed.walletId]);

    const claimedNextRuns = async (): Promise<boolean> => {
      const row = await deps.store.read.get<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM webhooks WHERE wallet_id = $1 AND next_run_at = $2',
        [claimed.walletId, MINUTE_0 + 2 * MINUTE],
      );
      return Number(row?.n) === SCHEDULES_PER_WALLET;
    };
    clock.set(MINUTE_0 + MINUTE + 200);
    expect(await until(claimedNextRuns, 4000)).toBe(true); // every 12:01 run claimed (the claim commits before the charge)
    await sleep(200);
    expect(outbound.requestsTo('/outage')).toHaveLength(0);

    // Immediate: a fast stop ends the holder's session first, and the charge waiting on its lock (one batched
    // statement) can then commit before its own session ends, rightly delivering during the stop.
    await postgres.stop('immediate');
    await holder.end().catch(() => undefined);
    clock.set(MINUTE_0 + 2 * MINUTE + 5000); // 12:02 comes while the database is away
    await sleep(4000);
    expect(outbound.requestsTo('/outage')).toHaveLength(0);
    await postgres.start();

    // Expected: claimed × {12:01, 12:02}, during × {12:02}.
    const expected = SCHEDULES_PER_WALLET * 3;
    const restored = performance.now();
    expect(await until(() => outbound.requestsTo('/outage').length >= expected, 15_000)).toBe(true);
    expect(performance.now() - restored).toBeLessThan(10_000);
    await sleep(2500); // time for a second delivery of anything, on either instance

    const runs = new Map<string, number>();
    for (const request of outbound.requestsTo('/outage')) {
      const body = JSON.parse(request.text) as { webhookId: string; scheduledFor: string };
      const key = `${body.webhookId}@${body.scheduledFor.slice(11, 16)}`;
      runs.set(key, (runs.get(key) ?? 0) + 1);
    }
    const want = [
      ...Array.from({ length: SCHEDULES_PER_WALLET }, (_, i) => [
        `claimed${i}@12:01`,
        `claimed${i}@12:02`,
        `during${i}@12:02`,
      ]).flat(),
    ].sort();
    expect([...runs.keys()].sort()).toEqual(want);
    expect([...runs.entries()].filter(([, count]) => count !== 1)).toEqual([]);

    // Money is exact: 2 credits per run, each charged once.
    const balance = async (walletId: number) =>
      Number(
        (await deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE id = $1', [walletId]))
          ?.balance,
      );
    expect(await balance(claimed.walletId)).toBe(CREDITS - 2 * 2 * SCHEDULES_PER_WALLET);
    expect(await balance(during.walletId)).toBe(CREDITS - 2 * SCHEDULES_PER_WALLET);

    // Each worker of each instance: no error, at most one warning for the outage; the scheduler (polling every second) exactly one, then one line when it resumed.
    for (const { logs } of services) {
      for (const worker of ['scheduler', 'low-balance', 'sweepers']) {
        const own = logs.filter((line) => line.worker === worker);
        expect(own.filter((line) => line.level >= ERROR).map((line) => line.msg)).toEqual([]);
        expect(own.filter((line) => line.level === WARN).length).toBeLessThanOrEqual(1);
      }
      const scheduler = logs.filter((line) => line.worker === 'scheduler');
      expect(scheduler.filter((line) => line.level === WARN)).toHaveLength(1);
      expect(scheduler.filter((line) => line.msg.includes('resumed'))).toHaveLength(1);
    }
  }, 90_000);
});
