import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { insertLogs } from '../../../src/ledger/log-insert.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';
import { sweep } from '../../../src/retention.js';
import { DAY, HOUR, MINUTE } from '../../../src/lib/time.js';

/** GET /token/spend (beyond the contract, docs/reference.md#call-logs): credits and calls per hour or day and category, from spend_hourly. */

const PLAIN = 'text/plain; charset=utf-8';

interface Spend {
  by: string;
  from: string;
  to: string;
  series: Array<{ start: string; endpoint: string; credits: number; calls: number }>;
}

describeEachStore('GET /token/spend (beyond the contract)', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  const call = (t: TestApp, token: string, method: 'GET' | 'POST', url: string) =>
    t.inject({ method, url, headers: { 'x-token': token }, ...(method === 'POST' ? { payload: 'v' } : {}) });
  const spend = async (t: TestApp, token: string, query: string) => {
    const res = await call(t, token, 'GET', `/token/spend?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cost']).toBe('0');
    return res.json() as Spend;
  };

  it('sums credits and calls per hour and per UTC day by category, only the calling wallet, free calls as calls', async () => {
    const t = get();
    const token = await t.createToken(100);
    const other = await t.createToken(100);
    clock.set(Date.parse('2026-06-02T23:30:00.000Z'));
    await call(t, token, 'POST', '/kv/s/late'); // kv 1, the day before
    clock.set(Date.parse('2026-06-03T10:15:00.000Z'));
    await call(t, token, 'POST', '/kv/s/1');
    await call(t, token, 'POST', '/kv/s/2');
    await call(t, token, 'GET', '/token'); // token 1
    await call(t, token, 'GET', '/token/logs'); // token, free
    await call(t, other, 'POST', '/kv/s/theirs');
    clock.set(Date.parse('2026-06-03T11:59:59.999Z'));
    await call(t, token, 'GET', '/myip'); // myip 1
    await call(t, token, 'POST', '/kv/s/3');
    await call(t, other, 'GET', '/myip');

    const hourly = await spend(t, token, 'days=2&by=hour');
    expect(hourly).toEqual({
      by: 'hour',
      from: '2026-06-01T12:00:00.000Z',
      to: '2026-06-03T11:59:59.999Z',
      series: [
        { start: '2026-06-02T23:00:00.000Z', endpoint: 'kv', credits: 1, calls: 1 },
        { start: '2026-06-03T10:00:00.000Z', endpoint: 'kv', credits: 2, calls: 2 },
        { start: '2026-06-03T10:00:00.000Z', endpoint: 'token', credits: 1, calls: 2 },
        { start: '2026-06-03T11:00:00.000Z', endpoint: 'kv', credits: 1, calls: 1 },
        { start: '2026-06-03T11:00:00.000Z', endpoint: 'myip', credits: 1, calls: 1 },
      ],
    });
    // The call above is logged too (token, free), at 11:59.
    const daily = await spend(t, token, 'by=day');
    expect(daily).toEqual({
      by: 'day',
      from: '2026-05-28T00:00:00.000Z',
      to: '2026-06-03T11:59:59.999Z',
      series: [
        { start: '2026-06-02T00:00:00.000Z', endpoint: 'kv', credits: 1, calls: 1 },
        { start: '2026-06-03T00:00:00.000Z', endpoint: 'kv', credits: 3, calls: 3 },
        { start: '2026-06-03T00:00:00.000Z', endpoint: 'myip', credits: 1, calls: 1 },
        { start: '2026-06-03T00:00:00.000Z', endpoint: 'token', credits: 1, calls: 3 },
      ],
    });
    // One day back starts at today's UTC midnight; by hour, 24 hours back to the current one.
    expect((await spend(t, token, 'days=1&by=day')).series.map((row) => row.start)).not.toContain(
      '2026-06-02T00:00:00.000Z',
    );
    const lastDay = await spend(t, token, 'days=1&by=hour');
    expect(lastDay.from).toBe('2026-06-02T12:00:00.000Z');
    expect(lastDay.series[0]).toEqual({ start: '2026-06-02T23:00:00.000Z', endpoint: 'kv', credits: 1, calls: 1 });
    const theirs = await spend(t, other, 'days=1&by=day');
    expect(theirs.series).toEqual([
      { start: '2026-06-03T00:00:00.000Z', endpoint: 'kv', credits: 1, calls: 1 },
      { start: '2026-06-03T00:00:00.000Z', endpoint: 'myip', credits: 1, calls: 1 },
    ]);
  });

  it('answers an empty series to a wallet that made no call', async () => {
    const t = get();
    const token = await t.createToken(10);
    expect((await spend(t, token, '')).series).toEqual([]);
  });

  it('counts a log batch once, in the unit that writes it, summed per wallet, hour and category', async () => {
    const t = get();
    const token = await t.createToken(10);
    const walletId = await walletIdOf(t.deps, token);
    const now = clock.now();
    const hour = now - (now % HOUR);
    const row = (i: number, createdAt: number, cost: number, endpoint: LogRecord['endpoint'] = 'kv'): LogRecord => ({
      id: `batch-${i}`,
      walletId,
      method: 'GET',
      path: '/kv/x',
      endpoint,
      statusCode: 200,
      responseTimeMs: 1,
      createdAt,
      cost,
      balance: 1,
    });
    // Out of order on purpose: the sums must not depend on the order of a batch.
    await insertLogs(t.deps.store, [
      row(1, hour + 5, 2),
      row(2, hour - 1, 1),
      row(3, hour + 10, 3, 'myip'),
      row(4, hour, 0),
      row(5, hour + 7, 5),
    ]);
    const stored = await t.deps.store.read.all<{ hour: number; endpoint: string; credits: number; calls: number }>(
      'SELECT hour, endpoint, credits, calls FROM spend_hourly WHERE wallet_id = $1 ORDER BY hour, endpoint',
      [walletId],
    );
    expect(stored).toEqual([
      { hour: hour - HOUR, endpoint: 'kv', credits: 1, calls: 1 },
      { hour, endpoint: 'kv', credits: 7, calls: 3 },
      { hour, endpoint: 'myip', credits: 3, calls: 1 },
    ]);
    // The sums are written in the batch's unit: when they fail, the batch's log rows are not written either.
    const [refuse, allow] =
      kind === 'sqlite'
        ? [
            "CREATE TRIGGER spend_guard BEFORE INSERT ON spend_hourly WHEN NEW.credits >= 1000 BEGIN SELECT RAISE(ABORT, 'refused'); END",
            'DROP TRIGGER spend_guard',
          ]
        : [
            'ALTER TABLE spend_hourly ADD CONSTRAINT spend_guard CHECK (credits < 1000)',
            'ALTER TABLE spend_hourly DROP CONSTRAINT spend_guard',
          ];
    await t.deps.store.writeOne(refuse);
    try {
      await expect(insertLogs(t.deps.store, [row(6, hour + 1, 4), row(7, hour + 2, 1000, 'token')])).rejects.toThrow();
    } finally {
      await t.deps.store.writeOne(allow);
    }
    expect(await t.deps.store.read.all("SELECT id FROM logs WHERE id IN ('batch-6', 'batch-7')")).toEqual([]);
    const kvCredits = async () =>
      (
        await t.deps.store.read.get<{ credits: number }>(
          'SELECT credits FROM spend_hourly WHERE wallet_id = $1 AND hour = $2 AND endpoint = $3',
          [walletId, hour, 'kv'],
        )
      )?.credits;
    expect(await kvCredits()).toBe(7);
    // Tried again, the batch counts once.
    await insertLogs(t.deps.store, [row(6, hour + 1, 4), row(7, hour + 2, 1000, 'token')]);
    expect(await kvCredits()).toBe(11);
  });

  it('has the sweeper remove rows whose hour is more than 8 days old, and a deleted wallet remove its own', async () => {
    const t = get();
    const token = await t.createToken(10);
    const walletId = await walletIdOf(t.deps, token);
    const now = clock.now();
    const at = (i: number, createdAt: number): LogRecord => ({
      id: `sweep-${i}`,
      walletId,
      method: 'GET',
      path: '/token',
      endpoint: 'token',
      statusCode: 200,
      responseTimeMs: 1,
      createdAt,
      cost: 1,
      balance: 1,
    });
    await insertLogs(t.deps.store, [at(1, now - 8 * DAY - 2 * HOUR), at(2, now - 8 * DAY + HOUR), at(3, now - MINUTE)]);
    const hours = async () =>
      (
        await t.deps.store.read.all<{ hour: number }>(
          'SELECT hour FROM spend_hourly WHERE wallet_id = $1 ORDER BY hour',
          [walletId],
        )
      ).map((row) => row.hour);
    expect(await hours()).toHaveLength(3);
    await sweep(t.deps);
    const hourOf = (ms: number) => ms - (ms % HOUR);
    expect(await hours()).toEqual([hourOf(now - 8 * DAY + HOUR), hourOf(now - MINUTE)]);

    // An idle wallet's deletion takes its spend rows with it.
    await t.deps.store.writeOne('UPDATE wallets SET last_used_at = 0 WHERE id = $1', [walletId]);
    expect((await sweep(t.deps)).deletedWallets).toBeGreaterThanOrEqual(1);
    expect(await hours()).toEqual([]);
  });

  it.each([
    ['days=0', 'Invalid days: must be an integer from 1 to 7'],
    ['days=8', 'Invalid days: must be an integer from 1 to 7'],
    ['days=1.5', 'Invalid days: must be an integer from 1 to 7'],
    ['days=', 'Invalid days: must be an integer from 1 to 7'],
    ['by=week', 'Invalid by: must be one of hour, day'],
    ['by=', 'Invalid by: must be one of hour, day'],
    ['type=kv', 'Unknown query parameter: type'],
  ])('answers 400 to %s, free', async (query, body) => {
    const t = get();
    const token = await t.createToken(10);
    const res = await call(t, token, 'GET', `/token/spend?${query}`);
    expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
      400,
      body,
      PLAIN,
      '0',
    ]);
  });

  it('answers 401 without a valid token', async () => {
    const res = await get().inject({ method: 'GET', url: '/token/spend' });
    expect([res.statusCode, res.body]).toEqual([401, 'Unauthorized']);
  });
});
