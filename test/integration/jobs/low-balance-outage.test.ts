import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startLowBalanceNotifier } from '../../../src/features/settings/low-balance-notifier.js';
import type { RunningWorker } from '../../../src/jobs/poller.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { MINUTE } from '../../../src/lib/time.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { sleep, until, type WorkerLogLine } from '../../helpers/wait.js';

/**
 * Low-balance notifiers on two instances, on a PostgreSQL of the test's own that goes away while a
 * notification is being sent: the claim is released once the database is back, so after its lease
 * would have run out no notifier takes it over and sends it again.
 */

const PATH = '/low-outage';

describe('low-balance notifications across a PostgreSQL outage, two instances', () => {
  const outbound = useOutboundFixture();
  const clock = new ManualClock();
  const database: { pg?: PrivatePostgres } = {};
  const instances: Array<{ t: TestApp; notifier: RunningWorker; logs: WorkerLogLine[] }> = [];

  beforeAll(async () => {
    database.pg = await startPrivatePostgres();
    if (database.pg === undefined) return;
    const shared = { url: database.pg.url, drop: async () => undefined };
    for (let i = 0; i < 2; i++) {
      const logs: WorkerLogLine[] = [];
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => void logs.push(JSON.parse(line) as WorkerLogLine) },
      );
      const t = await startTestApp('postgres', {
        database: shared,
        clock,
        env: outbound.env,
        overrides: () => ({ logger }),
      });
      instances.push({ t, notifier: startLowBalanceNotifier(t.deps, `instance-${i}`, { intervalMs: 200 }), logs });
    }
  }, 60_000);

  afterAll(async () => {
    for (const { t, notifier } of instances.reverse()) {
      await notifier();
      await t.close();
    }
    await database.pg?.destroy();
  }, 60_000);

  it('sends a notification whose send spanned the outage once, never again after its lease', async (context) => {
    const postgres = database.pg;
    const [first] = instances;
    if (postgres === undefined || first === undefined) return context.skip();
    const token = await first.t.createToken(100);
    await putSettings(first.t, token, { low_balance_threshold: 96, low_balance_webhook: { url: outbound.url(PATH) } });

    // The receiver holds its answer until the database is down: the send ends, and its claim is released, during the outage.
    let databaseDown!: () => void;
    const down = new Promise<void>((resolve) => (databaseDown = resolve));
    outbound.receiver().enqueue(async () => {
      await down;
      return { status: 200 };
    });
    expect(await spendCredits(first.t, token, 3)).toBe(96); // 100 - 1 (settings) - 3: at the threshold
    await outbound.receiver().waitForRequests(1);

    await postgres.stop();
    databaseDown();
    await sleep(1500);
    await postgres.start();

    const pending = async (): Promise<number> =>
      Number(
        (
          await first.t.deps.store.read.get<{ lb_pending: number }>('SELECT lb_pending FROM wallets WHERE hash = $1', [
            sha256Hex(token),
          ])
        )?.lb_pending,
      );
    const releasedInTime = await until(async () => (await pending()) === 0, 10_000);

    // Well past the claim's lease: nobody takes it over.
    clock.advance(5 * MINUTE);
    await sleep(1500);
    expect(outbound.requestsTo(PATH)).toHaveLength(1);
    expect(releasedInTime).toBe(true);

    // Each notifier: one warning for the outage, no error, one line when it resumed.
    for (const { logs } of instances) {
      const own = logs.filter((line) => line.worker === 'low-balance');
      expect(own.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
      expect(own.filter((line) => line.level === 40)).toHaveLength(1);
      expect(own.filter((line) => line.msg.includes('resumed'))).toHaveLength(1);
    }
  }, 90_000);
});
