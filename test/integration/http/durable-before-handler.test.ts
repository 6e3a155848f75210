// SQLite only: there a charge and the handler's own writes share a group commit that becomes durable
// later; on PostgreSQL a charge is committed before the handler runs, so the question does not arise.
// Under both READ_CHARGES settings: with `deferred` a read-only route (DNS, metadata) may reach out once its
// charge is committed, before its fsync; a route that sends (a test delivery) never does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

interface OutwardRoute {
  readonly name: string;
  readonly cost: string;
  /** Declared `readOnly` (a read): under READ_CHARGES=deferred it waits for its commit, not its fsync. */
  readonly readOnly: boolean;
  /** What reached the peer this route calls, counted. */
  reached(): number;
  /** Sets up what the call needs (with fsyncs released) and returns the call. */
  prepare(token: string): Promise<() => ReturnType<TestApp['inject']>>;
}

describe.each(['durable', 'deferred'] as const)(
  'a route that acts outside the service and the durability of its charge (READ_CHARGES=%s)',
  (readCharges) => {
    const outbound = useOutboundFixture();
    const disk = heldFsync();
    let dns: TestDnsServer | undefined;
    let app: TestApp | undefined;
    const theApp = (): TestApp => app as TestApp;
    beforeAll(async () => {
      dns = await startDnsServer({ zone: [rr('durable.test', 'A', '192.0.2.7', 300)] });
      disk.release();
      app = await startTestApp('sqlite', {
        env: { ...outbound.env, DNS_SERVERS: dns.address, READ_CHARGES: readCharges },
        overrides: (config) => ({
          store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), {
            fsync: disk.fsync,
            lateSyncMs: config.readChargeSyncMs,
          }),
        }),
      });
    });
    afterAll(async () => {
      disk.release();
      await app?.close();
      await dns?.close();
    });

    const routes: OutwardRoute[] = [
      {
        name: 'the test delivery of a webhook',
        cost: '1',
        readOnly: false,
        reached: () => outbound.requestsTo('/durable').length,
        prepare: async (token) => {
          const headers = { 'x-token': token, 'content-type': 'application/json' };
          const created = await theApp().inject({
            method: 'POST',
            url: '/webhook',
            headers,
            payload: JSON.stringify({ url: outbound.url('/durable') }),
          });
          expect(created.statusCode, created.body).toBe(200);
          const { webhookId } = created.json() as { webhookId: string };
          outbound.receiver().respondWith({ status: 200, body: 'ok' });
          return () =>
            theApp().inject({ method: 'POST', url: `/webhook/${webhookId}/test`, headers: { 'x-token': token } });
        },
      },
      {
        name: 'a DNS lookup',
        cost: '5',
        readOnly: true,
        reached: () => dns?.queriesFor('durable.test').length ?? 0,
        prepare: async (token) => {
          const payload = JSON.stringify({ domains: ['durable.test'], recordTypes: ['A'], enableSslInspection: false });
          return () =>
            theApp().inject({
              method: 'POST',
              url: '/dns-lookup',
              headers: { 'x-token': token, 'content-type': 'application/json' },
              payload,
            });
        },
      },
      {
        name: 'a URL metadata fetch',
        cost: '55',
        readOnly: true,
        reached: () => outbound.receiver().requests.length,
        prepare: async (token) => {
          outbound.receiver().respondWith({
            status: 200,
            body: '<html><head><title>Durable</title></head><body>page</body></html>',
            headers: { 'content-type': 'text/html' },
          });
          const payload = JSON.stringify({ url: outbound.url('/page') });
          return () =>
            theApp().inject({
              method: 'POST',
              url: '/url-to-metadata',
              headers: { 'x-token': token, 'content-type': 'application/json' },
              payload,
            });
        },
      },
    ];

    const waitsForDisk = routes.filter((route) => readCharges === 'durable' || !route.readOnly);
    const waitsForCommit = routes.filter((route) => readCharges === 'deferred' && route.readOnly);

    it.skipIf(waitsForDisk.length === 0).each(waitsForDisk)(
      'reaches nothing outside before its charge is on disk: $name',
      async (route) => {
        disk.release();
        const token = await theApp().createToken(100);
        const call = await route.prepare(token);
        const reachedBefore = route.reached();

        disk.hold();
        const fsyncsBefore = disk.calls;
        const answer = call();
        // The charge's commit asks for its fsync, which is held; then the route is given time it would need to reach out.
        for (const deadline = Date.now() + 5_000; disk.calls === fsyncsBefore && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 10));
        expect(disk.calls).toBeGreaterThan(fsyncsBefore);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(route.reached()).toBe(reachedBefore);
        disk.release(); // completes the held fsync, and lets the handler's own commits through
        const res = await answer;
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-cost']).toBe(route.cost);
        expect(route.reached()).toBeGreaterThan(reachedBefore);
      },
    );

    it.skipIf(waitsForCommit.length === 0).each(waitsForCommit)(
      'reaches out and answers once its charge is committed, its fsync still held: $name',
      async (route) => {
        disk.release();
        const token = await theApp().createToken(100);
        const call = await route.prepare(token);
        const reachedBefore = route.reached();

        disk.hold();
        const fsyncsBefore = disk.calls;
        const res = await call();
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-cost']).toBe(route.cost);
        expect(route.reached()).toBeGreaterThan(reachedBefore);
        // Answered while the fsync that makes its charge durable, asked for within READ_CHARGE_SYNC_MS, is still held.
        for (const deadline = Date.now() + 5_000; disk.calls === fsyncsBefore && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 5));
        expect(disk.calls).toBeGreaterThan(fsyncsBefore);
        disk.release();
      },
    );
  },
);

describe('a charge the disk refuses', () => {
  const failedFsync = async (error: Error) => {
    const failing = heldFsync();
    failing.release();
    const kvApp = await startTestApp('sqlite', {
      overrides: (config) => ({
        store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), { fsync: failing.fsync }),
      }),
    });
    try {
      const token = await kvApp.createToken(100);
      // One call answered first: its x-balance (99) is the wallet's last known balance.
      const first = await kvApp.inject({
        method: 'POST',
        url: '/kv/b/first',
        payload: 'v',
        headers: { 'x-token': token },
      });
      expect([first.statusCode, first.headers['x-balance']]).toEqual([200, '99']);
      failing.hold();
      const answer = kvApp.inject({ method: 'POST', url: '/kv/b/k', payload: 'v', headers: { 'x-token': token } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      failing.complete(failing.calls - 1, error);
      return await answer;
    } finally {
      failing.release();
      await kvApp.close().catch(() => undefined);
    }
  };

  it('answers 503 with retry-after, x-cost 0 and the last known balance when the disk refuses the charge (I/O error)', async () => {
    const res = await failedFsync(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
      503,
      'text/plain; charset=utf-8',
      'Service Unavailable',
    ]);
    // Not the 98 the uncommitted charge would have left: the balance last answered, read from memory.
    expect([res.headers['retry-after'], res.headers['x-cost'], res.headers['x-balance']]).toEqual(['2', '0', '99']);
  });

  it('answers 500 without cost headers when committing the charge fails for another reason', async () => {
    const res = await failedFsync(new Error('something else'));
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
      500,
      'text/plain; charset=utf-8',
      'Internal Server Error',
    ]);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual([undefined, undefined]);
  });
});
