import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { balanceOf } from '../../helpers/app.js';
import { ConfigError, loadConfig } from '../../../src/config.js';

const ALLOWED = 'https://app.example';
const OTHER_ALLOWED = 'http://localhost:5173';
const EXPOSED = 'x-cost, x-balance, x-request-id, retry-after';

describeEachStore('CORS for the origins in CORS_ORIGINS', (kind) => {
  const get = useTestApp(kind, { env: { CORS_ORIGINS: `${ALLOWED}, ${OTHER_ALLOWED}` } });

  it('lets an allowed origin read the answer and its cost headers', async () => {
    const token = await get().createToken(5);
    for (const origin of [ALLOWED, OTHER_ALLOWED]) {
      const res = await get().inject({ method: 'GET', url: '/token', headers: { origin, 'x-token': token } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
      expect(res.headers.vary).toBe('Origin');
      expect(res.headers['x-cost']).toBe('1');
    }
  });

  it.each(['https://evil.example', 'https://app.example.evil', 'http://app.example', 'null'])(
    'gives the origin %s no CORS headers',
    async (origin) => {
      const token = await get().createToken(5);
      const res = await get().inject({ method: 'GET', url: '/token', headers: { origin, 'x-token': token } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-expose-headers']).toBeUndefined();
      expect(res.headers.vary).toBe('Origin');
    },
  );

  it('answers a preflight from an allowed origin with 204, free and unmetered, on any route', async () => {
    for (const url of ['/kv/b/k', '/token/settings', '/dns-lookup']) {
      const res = await get().inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: ALLOWED,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'x-token, content-type',
        },
      });
      expect([res.statusCode, res.body], url).toEqual([204, '']);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      const allowedHeaders = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
      for (const header of ['authorization', 'content-type', 'x-token', 'mcp-protocol-version', 'mcp-session-id'])
        expect(allowedHeaders).toContain(header);
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(res.headers['x-cost']).toBeUndefined();
    }
  });

  it('charges and logs nothing for a preflight that carries a token', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({
      method: 'OPTIONS',
      url: '/kv/b/k',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'x-token': token },
    });
    expect(res.statusCode).toBe(204);
    expect(await balanceOf(get(), token)).toBe(5);
    const logs = await get().inject({ method: 'GET', url: '/token/logs', headers: { 'x-token': token } });
    expect((logs.json() as { n: number }).n).toBe(0);
  });

  it('leaves a preflight from another origin to the routes: 405 without CORS headers', async () => {
    const res = await get().inject({
      method: 'OPTIONS',
      url: '/kv/b/k',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect([res.statusCode, res.body]).toEqual([405, 'Method Not Allowed']);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('exposes the cost headers on a 402', async () => {
    const token = await get().createToken(0);
    const res = await get().inject({ method: 'GET', url: '/token', headers: { origin: ALLOWED, 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([402, 'Insufficient credits']);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '0']);
  });

  it.each([
    ['an unknown path', 'GET', '/nope', 404, 'Not Found'],
    ['an unknown path under /kv', 'GET', '/kv/b/k/extra', 404, 'Not Found'],
    ['a missing token', 'GET', '/kv/b/k', 401, 'Unauthorized'],
    ['a method the path does not answer', 'PUT', '/kv/b/k', 405, 'Method Not Allowed'],
    [
      'a malformed percent-encoding (answered by the router)',
      'GET',
      '/kv/b/%FF',
      400,
      'Invalid path: malformed percent-encoding',
    ],
  ])('carries the CORS headers on an error: %s', async (_name, method, url, status, body) => {
    const res = await get().inject({ method: method as 'GET', url, headers: { origin: ALLOWED } });
    expect([res.statusCode, res.body]).toEqual([status, body]);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
  });
});

describeEachStore('without CORS_ORIGINS', (kind) => {
  const get = useTestApp(kind);

  it('sends no CORS headers at all, and leaves OPTIONS to the routes', async () => {
    const res = await get().inject({ method: 'GET', url: '/healthz', headers: { origin: ALLOWED } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    const preflight = await get().inject({
      method: 'OPTIONS',
      url: '/kv/b/k',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS', () => {
  it('is a list of exact origins, normalised as browsers send them', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://App.Example, http://127.0.0.1:8080/' }).corsOrigins).toEqual([
      'https://app.example',
      'http://127.0.0.1:8080',
    ]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });

  it.each([
    '*',
    'app.example',
    'https://app.example/path',
    'ftp://app.example',
    'https://app.example?x=1',
    'https://user@app.example',
    'null',
  ])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
  });
});
