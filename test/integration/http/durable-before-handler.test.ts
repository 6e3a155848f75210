// SQLite only: there a charge and the handler's own writes share a group commit that becomes durable
// later; on PostgreSQL a charge is committed before the handler runs, so the question does not arise.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

describe('a paid route and the durability of its charge', () => {
  const outbound = useOutboundFixture();
  const disk = heldFsync();
  let app: TestApp | undefined;
  afterAll(async () => {
    disk.release();
    await app?.close();
  });

  it('sends nothing out before its charge is on disk (the test delivery of a webhook)', async () => {
    disk.release();
    app = await startTestApp('sqlite', {
      env: outbound.env,
      overrides: (config) => ({ store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), { fsync: disk.fsync }) }),
    });
    const token = await app.createToken(100);
    const headers = { 'x-token': token, 'content-type': 'application/json' };
    const created = await app.inject({ method: 'POST', url: '/webhook', headers, payload: JSON.stringify({ url: outbound.url('/durable') }) });
    expect(created.statusCode, created.body).toBe(200);
    const { webhookId } = created.json() as { webhookId: string };
    outbound.receiver().respondWith({ status: 200, body: 'ok' });

    disk.hold();
    const fsyncsBefore = disk.calls;
    const answer = app.inject({ method: 'POST', url: `/webhook/${webhookId}/test`, headers: { 'x-token': token } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(disk.calls).toBe(fsyncsBefore + 1); // the charge's commit waits for its fsync
    expect(outbound.requestsTo('/durable')).toHaveLength(0);
    disk.complete(disk.calls - 1);
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cost']).toBe('1');
    expect(outbound.requestsTo('/durable')).toHaveLength(1);
  });

  it('answers 500 without cost headers when the charge never reaches the disk', async () => {
    const failing = heldFsync();
    failing.release();
    const kvApp = await startTestApp('sqlite', {
      overrides: (config) => ({ store: openSqliteStore(config.databaseUrl.slice('sqlite:'.length), { fsync: failing.fsync }) }),
    });
    try {
      const token = await kvApp.createToken(100);
      failing.hold();
      const answer = kvApp.inject({ method: 'POST', url: '/kv/b/k', payload: 'v', headers: { 'x-token': token } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      failing.complete(failing.calls - 1, Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      const res = await answer;
      expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([500, 'text/plain; charset=utf-8', 'Internal Server Error']);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual([undefined, undefined]);
    } finally {
      failing.release();
      await kvApp.close().catch(() => undefined);
    }
  });
});
