import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { keepPoolFull, TOP_UP_INTERVAL_MS } from '../../../src/store/postgres/pool-keeper.js';
import type { Store } from '../../../src/store/store.js';

/**
 * The PostgreSQL pool keeps its size: its connections open when the store opens and again after they are lost, and
 * filling it never holds a call back. A pool that opened them as a burst arrived made every call of that moment wait
 * for a new backend (one wallet's burst stalled every other wallet for up to a quarter of a second).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL pool kept at its size', () => {
  const base = process.env.TEST_DATABASE_URL as string;
  /** The server's sessions carrying `name` (their process ids), read on a connection of the test's own. */
  async function backends(name: string): Promise<number[]> {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [name],
      );
      return rows.map((row) => row.pid);
    } finally {
      await admin.end();
    }
  }
  const sessions = async (name: string): Promise<number> => (await backends(name)).length;
  async function terminate(name: string): Promise<void> {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    await admin.end();
  }
  async function until(condition: () => Promise<boolean>, withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if (await condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return condition();
  }
  /** The test database's URL with an application name of this test's own, to find its sessions by. */
  function named(): { url: string; name: string } {
    const name = `pool-test-${randomBytes(4).toString('hex')}`;
    const url = new URL(base);
    url.searchParams.set('application_name', name);
    return { url: url.toString(), name };
  }

  const opened: Array<{ end(): Promise<void> }> = [];
  /** A pool of `size` on the test database, kept by a keeper (stopped after the test), and the name of its sessions. */
  function keptPool(size: number, options: { available: boolean; intervalMs: number }) {
    const { url, name } = named();
    const pool = new pg.Pool({ connectionString: url, max: size, min: size });
    pool.on('error', () => undefined);
    const keeper = keepPoolFull(pool, { size, available: () => options.available, intervalMs: options.intervalMs });
    opened.push({
      end: () => {
        keeper.stop();
        return pool.end();
      },
    });
    return { pool, keeper, name };
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((pool) => pool.end()));
  });

  it('opens every connection of the pool when the store opens, before any call', async () => {
    const { url, name } = named();
    const store: Store = openPostgresStore(url, { poolSize: 4 });
    opened.push({ end: () => store.close() });
    // Sooner than the first top-up would open them.
    expect(await until(async () => (await sessions(name)) === 4, TOP_UP_INTERVAL_MS / 2)).toBe(true);
    // A burst of calls meets them open: none is opened for it, none is closed after it.
    await Promise.all(Array.from({ length: 12 }, () => store.read.get('SELECT pg_sleep(0.01)')));
    expect(await sessions(name)).toBe(4);
  });

  it('opens again, by itself, the connections the server ended', async () => {
    const { pool, keeper, name } = keptPool(3, { available: true, intervalMs: 100 });
    await keeper.fill();
    const ended = await backends(name);
    expect([pool.totalCount, ended.length]).toEqual([3, 3]);
    await terminate(name);
    const reopened = async (): Promise<boolean> => {
      const now = await backends(name);
      return pool.totalCount === 3 && now.length === 3 && now.every((pid) => !ended.includes(pid));
    };
    expect(await until(reopened, 5_000)).toBe(true);
    expect(pool.waitingCount).toBe(0);
  });

  it('leaves the pool short while the database is known to be away', async () => {
    const { pool, name } = keptPool(3, { available: false, intervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect([pool.totalCount, await sessions(name)]).toEqual([0, 0]);
  });

  it('serves a call from an idle connection while the missing ones are still opening', async () => {
    const { pool, keeper } = keptPool(6, { available: true, intervalMs: 60_000 });
    await pool.query('SELECT 1');
    expect([pool.totalCount, pool.idleCount]).toEqual([1, 1]);
    const order: string[] = [];
    const filled = keeper.fill().then(() => order.push('filled'));
    const answered = pool.query('SELECT 1').then(() => order.push('answered'));
    await Promise.all([filled, answered]);
    expect(order).toEqual(['answered', 'filled']);
    expect(pool.totalCount).toBe(6);
  });
});
