import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describeEachStore } from '../../helpers/each-store.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { STORE_KINDS } from '../../helpers/stores.js';
import type { StoreKind } from '../../helpers/stores.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { balanceOf } from '../../helpers/app.js';

const PLAIN = 'text/plain; charset=utf-8';
const ADMIN_TOKEN = 'operator-secret-0123456789';

describeEachStore('HTTP behaviour shared by all routes', (kind) => {
  const get = useTestApp(kind, { env: { ADMIN_TOKEN } });

  // On a metered route's path a valid token sees x-cost: 0 and its balance, as on every refusal before routing (docs/reference.md#tokens-wallets-and-metering).
  it.each([
    ['GET', '/nope', false],
    ['GET', '/kv/b/k/extra', true],
    ['DELETE', '/token/logs/1', true],
  ] as Array<[HTTPMethods, string, boolean]>)(
    'answers %s %s with 404 Not Found in plain text, charging nothing',
    async (method, url, metered) => {
      const token = await get().createToken(5);
      const res = await get().inject({ method, url, headers: { 'x-token': token } });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([404, 'Not Found', PLAIN]);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(metered ? ['0', '5'] : [undefined, undefined]);
      expect(await balanceOf(get(), token)).toBe(5);
    },
  );

  it.each([
    ['PUT', '/kv/b/k', 'GET, HEAD, POST, DELETE', true],
    ['POST', '/kv', 'GET, HEAD', true],
    ['PATCH', '/kv/b/k', 'GET, HEAD, POST, DELETE', true],
    ['PATCH', '/token', 'GET, HEAD, POST', true],
    ['DELETE', '/token', 'GET, HEAD, POST', true],
    ['POST', '/token/logs', 'GET, HEAD', true],
    ['POST', '/token/settings', 'GET, HEAD, PUT', true],
    ['DELETE', '/token/settings', 'GET, HEAD, PUT', true],
    ['POST', '/healthz', 'GET, HEAD', false],
    ['POST', '/docs', 'GET, HEAD', false],
    ['DELETE', '/docs/json', 'GET, HEAD', false],
    ['PUT', '/docs/yaml', 'GET, HEAD', false],
    ['GET', `/manage/wallets/${'a'.repeat(64)}/credit`, 'POST', false],
    ['PUT', `/manage/wallets/${'a'.repeat(64)}`, 'GET, HEAD, DELETE', false],
  ] as Array<[HTTPMethods, string, string, boolean]>)(
    'answers %s %s with 405 and allow: %s, charging nothing',
    async (method, url, allow, metered) => {
      const token = await get().createToken(5);
      const res = await get().inject({
        method,
        url,
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([405, 'Method Not Allowed', PLAIN]);
      expect(res.headers.allow).toBe(allow);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(metered ? ['0', '5'] : [undefined, undefined]);
      expect(await balanceOf(get(), token)).toBe(5);
    },
  );

  it('answers 400 Invalid JSON body in plain text to malformed JSON', async () => {
    const token = await get().createToken(5);
    for (const payload of ['{', '{"low_balance_threshold": 1,}', "{'a': 1}"]) {
      const res = await get().inject({
        method: 'PUT',
        url: '/token/settings',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload,
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, 'Invalid JSON body', PLAIN]);
    }
    const res = await get().inject({
      method: 'POST',
      url: `/manage/wallets/${sha256Hex(token)}/credit`,
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      payload: '{"amount":',
    });
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, 'Invalid JSON body', PLAIN]);
  });

  it.each([
    ['PUT', '/token/settings', 'Unsupported content type', PLAIN],
    ['POST', '/webhook', 'Unsupported content type', PLAIN],
    ['POST', '/dns-lookup', 'Unsupported content type', PLAIN],
    // This route's errors are JSON (docs/contract.md#url-metadata).
    [
      'POST',
      '/url-to-metadata',
      '{"success":false,"error":"Unsupported content type"}',
      'application/json; charset=utf-8',
    ],
  ] as const)(
    'answers %s %s with a JSON object sent as text/plain: 400 Unsupported content type',
    async (method, url, body, type) => {
      const token = await get().createToken(10);
      const res = await get().inject({
        method,
        url,
        headers: { 'x-token': token, 'content-type': 'text/plain;charset=UTF-8' },
        payload: '{"low_balance_threshold":7}',
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, body, type]);
    },
  );

  it('refuses a compressed body (Content-Encoding gzip, br): 400, charged as a refusal, nothing stored', async () => {
    const token = await get().createToken(10);
    for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
      const res = await get().inject({
        method: 'POST',
        url: '/kv/encoded/value',
        headers: { 'x-token': token, 'content-type': 'text/plain', 'content-encoding': encoding },
        payload: gzipSync('hello'),
      });
      expect([res.statusCode, res.body, res.headers['x-cost']]).toEqual([400, 'Unsupported content encoding', '1']);
    }
    const read = await get().inject({ method: 'GET', url: '/kv/encoded/value', headers: { 'x-token': token } });
    expect(read.statusCode).toBe(404);
    // identity is no encoding at all.
    const plain = await get().inject({
      method: 'POST',
      url: '/kv/encoded/value',
      headers: { 'x-token': token, 'content-type': 'text/plain', 'content-encoding': 'identity' },
      payload: 'hello',
    });
    expect(plain.statusCode).toBe(200);
  });

  it.each(['[1]', '"text"', '42', 'true', 'null'])(
    'answers 400 to the JSON body %s, which is not an object',
    async (payload) => {
      const token = await get().createToken(5);
      const res = await get().inject({
        method: 'PUT',
        url: '/token/settings',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload,
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([
        400,
        'Invalid body: must be a JSON object',
        PLAIN,
      ]);
    },
  );

  it('answers 413 Payload Too Large in plain text to a body over the limit', async () => {
    const token = await get().createToken(5);
    const big = JSON.stringify({ low_balance_email: 'x'.repeat(300 * 1024) });
    const settings = await get().inject({
      method: 'PUT',
      url: '/token/settings',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: big,
    });
    expect([settings.statusCode, settings.body, settings.headers['content-type']]).toEqual([
      413,
      'Payload Too Large',
      PLAIN,
    ]);
    const form = await get().inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=new&pad=${'x'.repeat(2048)}`,
      remoteAddress: '192.0.2.200',
    });
    expect([form.statusCode, form.body, form.headers['content-type']]).toEqual([413, 'Payload Too Large', PLAIN]);
  });

  it('answers GET /healthz with 200 OK without a token', async () => {
    const res = await get().inject({ method: 'GET', url: '/healthz' });
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([200, 'OK', PLAIN]);
    expect(res.headers['x-cost']).toBeUndefined();
  });
});

/** The routes every build serves, as the OpenAPI document writes them. */
const CORE_OPERATIONS = [
  'get /healthz',
  'post /token',
  'get /token',
  'get /token/logs',
  'get /token/settings',
  'put /token/settings',
  'post /kv/{bucket}/{key}',
  'get /kv/{bucket}/{key}',
  'delete /kv/{bucket}/{key}',
];
const MANAGE_OPERATIONS = [
  'get /manage/wallets/{hash}',
  'delete /manage/wallets/{hash}',
  'post /manage/wallets/{hash}/credit',
  'post /manage/wallets/{hash}/debit',
  'get /manage/wallets',
  'get /manage/wallets/{hash}/logs',
  'get /manage/stats',
];

function operations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.includes(m))
      .map((m) => `${m} ${path}`),
  );
}

/** Follows redirects inside the app, as a browser would. */
async function follow(t: TestApp, url: string) {
  let current = new URL(url, 'http://coinop.test');
  for (let hop = 0; hop < 5; hop++) {
    const res = await t.inject({ method: 'GET', url: current.pathname + current.search });
    if (res.statusCode < 300 || res.statusCode >= 400) return { res, url: current };
    current = new URL(String(res.headers.location), current);
    expect(current.origin).toBe('http://coinop.test');
  }
  throw new Error(`too many redirects from ${url}`);
}

function documentationSuite(kind: StoreKind, label: string, env: Record<string, string>, expected: readonly string[]) {
  describe(`documentation ${label} [${kind}]`, () => {
    const get = useTestApp(kind, { env });

    it('serves /openapi.json as a valid OpenAPI 3.0 document', async () => {
      const res = await get().inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const doc = res.json() as { openapi: string };
      expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
      await expect(
        SwaggerParser.validate(structuredClone(doc) as unknown as Parameters<typeof SwaggerParser.validate>[0]),
      ).resolves.toBeTruthy();
    });

    it('lists every route, and no 405 placeholder', async () => {
      const doc = (await get().inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const listed = operations(doc);
      for (const operation of expected) expect(listed).toContain(operation);
      expect(listed).not.toContain('put /kv/{bucket}/{key}');
      expect(listed).not.toContain('patch /token');
      expect(listed.filter((operation) => operation.includes('/manage/'))).toEqual(
        expected.filter((operation) => operation.includes('/manage/')),
      );
    });

    it('serves /docs from local assets only', async () => {
      const { res, url } = await follow(get(), '/docs');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<div id="swagger-ui">');
      expect(res.body).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
      const assets = [...res.body.matchAll(/(?:src|href)\s*=\s*"([^"]+)"/g)].map(
        (match) => new URL(match[1] as string, url),
      );
      expect(assets.some((asset) => asset.pathname.endsWith('.js'))).toBe(true);
      expect(assets.some((asset) => asset.pathname.endsWith('.css'))).toBe(true);
      for (const asset of assets) {
        expect(asset.origin).toBe('http://coinop.test');
        const served = await follow(get(), asset.pathname);
        expect(served.res.statusCode, asset.pathname).toBe(200);
        expect(served.res.rawPayload.length, asset.pathname).toBeGreaterThan(0);
        if (asset.pathname.endsWith('.js')) expect(served.res.headers['content-type']).toMatch(/javascript/);
        if (asset.pathname.endsWith('.css')) expect(served.res.headers['content-type']).toMatch(/^text\/css/);
      }
    });

    it('gives the docs UI the same document as /openapi.json', async () => {
      const initializer = await get().inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
      expect(initializer.statusCode).toBe(200);
      const code = initializer.body.replace(/^\s*\/\/.*$/gm, '');
      expect(code).not.toMatch(/https?:\/\//);
      const specPath = /url:\s*resolveUrl\('\.\/([^']+)'\)/.exec(initializer.body)?.[1];
      expect(specPath).toBe('json');
      const fromUi = await get().inject({ method: 'GET', url: `/docs/${specPath}` });
      expect(fromUi.statusCode).toBe(200);
      const direct = await get().inject({ method: 'GET', url: '/openapi.json' });
      expect(fromUi.json()).toStrictEqual(direct.json());
    });
  });
}

for (const kind of STORE_KINDS) {
  documentationSuite(kind, 'without ADMIN_TOKEN', {}, CORE_OPERATIONS);
  documentationSuite(kind, 'with ADMIN_TOKEN', { ADMIN_TOKEN }, [...CORE_OPERATIONS, ...MANAGE_OPERATIONS]);
}
