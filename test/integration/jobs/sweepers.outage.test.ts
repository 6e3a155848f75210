import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startRetention } from '../../../src/retention.js';
import { MINUTE, SECOND } from '../../../src/lib/time.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { sleep, type WorkerLogLine } from '../../helpers/wait.js';

/**
 * The sweeper (a pass a minute) on a PostgreSQL of the test's own that is away when its pass comes: it
 * logs one warning, tries again every few seconds instead of waiting for the next minute, and sweeps
 * within seconds of the database's return.
 */

describe('sweepers across a PostgreSQL outage', () => {
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:10.000Z'));
  const database: { pg?: PrivatePostgres } = {};
  const logs: WorkerLogLine[] = [];
  let app: TestApp | undefined;

  beforeAll(async () => {
    database.pg = await startPrivatePostgres();
    if (database.pg === undefined) return;
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logs.push(JSON.parse(line) as WorkerLogLine) },
    );
    app = await startTestApp('postgres', {
      database: { url: database.pg.url, drop: async () => undefined },
      clock,
      overrides: () => ({ logger }),
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database.pg?.destroy();
  }, 60_000);

  it('sweeps within seconds of the database returning, with one warning for the outage', async (context) => {
    const postgres = database.pg;
    if (postgres === undefined || app === undefined) return context.skip();
    const token = await app.createToken(100);
    const set = await app.inject({
      method: 'POST',
      url: '/kv/outage/key?ttl=10',
      payload: 'v',
      headers: { 'x-token': token },
    });
    expect(set.statusCode).toBe(200);
    clock.advance(20 * SECOND); // expired: the next sweep deletes it
    const keys = async (): Promise<number> =>
      Number((await app?.deps.store.read.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM kv'))?.n);

    await postgres.stop();
    const stop = startRetention(app.deps, 'outage-test', MINUTE); // its first pass meets the database away
    try {
      await sleep(5000);
      await postgres.start();
      const restarted = performance.now();
      let swept = false;
      while (!swept && performance.now() - restarted < 10_000) {
        swept = (await keys().catch(() => 1)) === 0;
        if (!swept) await sleep(200);
      }
      expect(swept).toBe(true);
    } finally {
      await stop();
    }
    const own = logs.filter((line) => line.worker === 'sweepers');
    expect(own.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(own.filter((line) => line.level === 40)).toHaveLength(1);
    expect(own.filter((line) => line.msg.includes('resumed'))).toHaveLength(1);
  }, 60_000);
});
