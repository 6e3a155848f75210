import { afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function balanceOf(app: TestApp, token: string): Promise<number | undefined> {
  const row = await app.deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', [
    sha256Hex(token),
  ]);
  return row?.balance;
}

// SQLite, the WAL fsync held: what a KV read and a KV write wait for before their answer.
describe.each(['deferred', 'durable'] as const)(
  'the answer of a KV GET and its fsync (READ_CHARGES=%s)',
  (readCharges) => {
    const disk = heldFsync();
    let app: TestApp | undefined;
    afterEach(async () => {
      disk.release();
      await app?.close();
      app = undefined;
    });

    async function start(): Promise<{ theApp: TestApp; token: string }> {
      disk.release();
      const theApp = await startTestApp('sqlite', {
        env: { READ_CHARGES: readCharges },
        overrides: (config) => ({
          store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), {
            fsync: disk.fsync,
            lateSyncMs: config.readChargeSyncMs,
          }),
        }),
      });
      app = theApp;
      const token = await theApp.createToken(100);
      const set = await theApp.inject({ method: 'POST', url: '/kv/b/k', payload: 'v', headers: { 'x-token': token } });
      expect(set.statusCode).toBe(200);
      await theApp.deps.ledger.flush();
      disk.hold();
      return { theApp, token };
    }

    it(
      readCharges === 'deferred' ? 'answers while its fsync is held, the charge committed' : 'waits for its fsync',
      async () => {
        const { theApp, token } = await start();
        const fsyncsBefore = disk.calls;
        let answered = false;
        const get = theApp
          .inject({ method: 'GET', url: '/kv/b/k', headers: { 'x-token': token } })
          .finally(() => (answered = true));
        for (const deadline = Date.now() + 5_000; disk.calls === fsyncsBefore && Date.now() < deadline;) await sleep(2);
        expect(disk.calls).toBeGreaterThan(fsyncsBefore); // the fsync that makes the charge durable has been asked for, and is held
        await sleep(100);
        expect(answered).toBe(readCharges === 'deferred');
        expect(await balanceOf(theApp, token)).toBe(98); // committed either way
        disk.release();
        const res = await get;
        expect([res.statusCode, res.body, res.headers['x-cost'], res.headers['x-balance']]).toEqual([
          200,
          'v',
          '1',
          '98',
        ]);
      },
    );

    it('a KV set never answers before its fsync, whatever reads share its group commit', async () => {
      const { theApp, token } = await start();
      const other = await (async () => {
        disk.release();
        const created = await theApp.createToken(100);
        disk.hold();
        return created;
      })();
      const fsyncsBefore = disk.calls;
      let setAnswered = false;
      // Started together: the reads' charges and the write's commit in the same moment.
      const gets = [token, token, other].map((t) =>
        theApp.inject({ method: 'GET', url: '/kv/b/k', headers: { 'x-token': t } }),
      );
      const set = theApp
        .inject({ method: 'POST', url: '/kv/b/k', payload: 'w', headers: { 'x-token': token } })
        .finally(() => (setAnswered = true));
      const gets2 = [token, other].map((t) =>
        theApp.inject({ method: 'GET', url: '/kv/b/k', headers: { 'x-token': t } }),
      );
      for (const deadline = Date.now() + 5_000; disk.calls === fsyncsBefore && Date.now() < deadline;) await sleep(2);
      expect(disk.calls).toBeGreaterThan(fsyncsBefore);
      if (readCharges === 'deferred') {
        const answers = await Promise.all([...gets, ...gets2]);
        // The other wallet has no such key: a 404, charged all the same.
        expect(answers.map((res) => [res.statusCode, res.headers['x-cost']])).toEqual([
          [200, '1'],
          [200, '1'],
          [404, '1'],
          [200, '1'],
          [404, '1'],
        ]);
      }
      await sleep(100);
      expect(setAnswered).toBe(false);
      disk.release();
      expect((await set).statusCode).toBe(200);
      await Promise.all([...gets, ...gets2]);
    });
  },
);

describeEachStore('a KV GET charge is in the database once answered', (kind) => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it.each(['deferred', 'durable'] as const)('READ_CHARGES=%s', async (readCharges) => {
    app = await startTestApp(kind, { env: { READ_CHARGES: readCharges } });
    const token = await app.createToken(10);
    const res = await app.inject({ method: 'GET', url: '/kv/b/missing', headers: { 'x-token': token } });
    expect([res.statusCode, res.headers['x-cost'], res.headers['x-balance']]).toEqual([404, '1', '9']);
    expect(await balanceOf(app, token)).toBe(9);
  });
});
