import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { useTestApp } from '../../helpers/use-test-app.js';
import { startTestApp } from '../../helpers/app.js';

const GENERATED = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/;

/** The trusted proxy of these tests: inject's default peer address. */
const PROXY = '127.0.0.1';

describe('x-request-id on every answer', () => {
  const get = useTestApp('sqlite', { env: { TRUST_PROXY: PROXY } });

  it('echoes a well-formed id given by a trusted proxy', async () => {
    const id = 'Abc-123_x.y';
    const res = await get().inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-request-id': id },
    });
    expect(res.headers['x-request-id']).toBe(id);
  });

  it('generates its own for a client that is not a trusted proxy, even one naming an id the service gave another request', async () => {
    const earlier = (await get().inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.1' })).headers[
      'x-request-id'
    ];
    expect(earlier).toMatch(GENERATED);
    for (const claimed of ['Abc-123_x.y', String(earlier)]) {
      const res = await get().inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress: '198.51.100.2',
        headers: { 'x-request-id': claimed },
      });
      expect(res.headers['x-request-id']).toMatch(GENERATED);
      expect(res.headers['x-request-id']).not.toBe(claimed);
    }
  });

  it('generates its own for every client when no proxy is trusted', async () => {
    const t = await startTestApp('sqlite');
    try {
      const res = await t.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress: PROXY,
        headers: { 'x-request-id': 'Abc-123_x.y' },
      });
      expect(res.headers['x-request-id']).toMatch(GENERATED);
    } finally {
      await t.close();
    }
  });

  it('replaces a malformed or overlong one, and generates distinct ids when none is given', async () => {
    for (const bad of ['a b', 'x'.repeat(65), 'id;evil', 'ünïcode', '']) {
      const res = await get().inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(GENERATED);
    }
    const ids = new Set<unknown>();
    for (let i = 0; i < 5; i++)
      ids.add((await get().inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']);
    expect(ids.size).toBe(5);
  });

  it('is on errors too: 400, 401, 404, 405, 413 and a path refused before routing', async () => {
    const token = await get().createToken(100);
    const cases: [number, InjectOptions][] = [
      [400, { method: 'POST', url: '/kv/b/k?ttl=1.5', headers: { 'x-token': token }, payload: 'v' }],
      [400, { method: 'GET', url: '/kv/b/%FF', headers: { 'x-token': token } }],
      [401, { method: 'GET', url: '/kv/b/k' }],
      [404, { method: 'GET', url: '/no/such/path' }],
      [405, { method: 'PUT', url: '/kv/b/k', headers: { 'x-token': token } }],
      [413, { method: 'POST', url: '/kv/b/k', headers: { 'x-token': token }, payload: 'v'.repeat(17 * 1024) }],
    ];
    for (const [status, request] of cases) {
      const res = await get().inject({ ...request, headers: { ...request.headers, 'x-request-id': `case-${status}` } });
      const label = `${String(request.method)} ${typeof request.url === 'string' ? request.url : ''}`;
      expect(res.statusCode, label).toBe(status);
      expect(res.headers['x-request-id'], label).toBe(`case-${status}`);
    }
  });
});
