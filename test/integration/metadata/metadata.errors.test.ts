import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useAppWith } from '../../fixtures/override-app.js';
import { createOutbound } from '../../../src/outbound/outbound-client.js';
import { createNameLookup } from '../../../src/outbound/name-resolution.js';
import { analyze, hits, useSites } from './sites.js';
import { balanceOf } from '../../helpers/app.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const PLAIN = 'text/plain; charset=utf-8';

/** A `{success: false, error}` answer with its status and final cost. */
function expectFailure(res: LightMyRequestResponse, status: number, error: string | RegExp, cost: number): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  const body = res.json();
  expect(body.success).toBe(false);
  if (typeof error === 'string') expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
  expect(Object.keys(body).sort()).toEqual(['error', 'success']);
  expect(res.headers['x-cost']).toBe(String(cost));
}

describeEachStore('POST /url-to-metadata: failures', (kind) => {
  const { env, sites } = useSites();
  const get = useTestApp(kind, { env });

  describe('400 for a bad request or URL, costing 1 credit', () => {
    it.each([
      ['not a URL', 'not a url', 'Invalid url: must be an absolute http or https URL'],
      ['a relative path', '/rich', 'Invalid url: must be an absolute http or https URL'],
      ['an ftp URL', 'ftp://example.com/file', 'Invalid url: must be an absolute http or https URL'],
      ['a file URL', 'file:///etc/passwd', 'Invalid url: must be an absolute http or https URL'],
      ['credentials in the URL', 'https://user:secret@example.com/', 'Invalid url: must not contain credentials'],
    ])('refuses %s', async (_name, url, error) => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url });
      expectFailure(res, 400, error, 1);
      expect(res.headers['x-balance']).toBe('99');
    });

    it.each([
      ['a private IPv4 literal', 'http://10.1.2.3/admin'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 loopback (not in the allowed ranges)', 'http://[::1]:8080/'],
      ['an obfuscated private address', 'http://0x0a.1.2.3/'],
    ])('refuses %s without connecting', async (_name, url) => {
      const token = await get().createToken(100);
      expectFailure(
        await analyze(get(), token, { url }),
        400,
        'Invalid url: refused address (not a public address)',
        1,
      );
    });

    it('refuses a redirect to a private address', async () => {
      const token = await get().createToken(100);
      expectFailure(
        await analyze(get(), token, { url: sites().https.url('/to-private') }),
        400,
        'Invalid url: refused address (not a public address)',
        1,
      );
    });

    it.each([
      ['a missing url', {}, 'Missing required field: url'],
      ['a url that is not a string', { url: 42 }, 'Invalid url: must be a string of at most 2048 characters'],
      [
        'an unknown aiSummary level',
        { url: 'https://example.com/', aiSummary: 'huge' },
        'Invalid aiSummary: must be one of none, short, medium, long',
      ],
      ['a body that is not an object', [], 'Invalid body: must be a JSON object'],
      [
        'an over-long url',
        { url: `https://example.com/${'a'.repeat(2100)}` },
        'Invalid url: must be a string of at most 2048 characters',
      ],
    ])('refuses %s', async (_name, body, error) => {
      const token = await get().createToken(100);
      expectFailure(await analyze(get(), token, body), 400, error, 1);
      expect(await balanceOf(get(), token)).toBe(99);
    });

    it('refuses malformed JSON, charging 1', async () => {
      const token = await get().createToken(100);
      expectFailure(await analyze(get(), token, '{"url": "https://exa'), 400, 'Invalid JSON body', 1);
      expect(await balanceOf(get(), token)).toBe(99);
    });

    it('refuses a body that is not JSON (sent as text/plain: a type the route does not read)', async () => {
      const token = await get().createToken(100);
      const res = await get().inject({
        method: 'POST',
        url: '/url-to-metadata',
        headers: { 'x-token': token, 'content-type': 'text/plain' },
        payload: 'https://example.com/',
      });
      expectFailure(res, 400, 'Unsupported content type', 1);
    });

    it('refuses an oversized body with 413, charging 1', async () => {
      const token = await get().createToken(100);
      expectFailure(
        await analyze(get(), token, { url: 'https://example.com/', pad: 'x'.repeat(20_000) }),
        413,
        'Payload Too Large',
        1,
      );
    });

    it('records the error message and final cost in the log', async () => {
      const token = await get().createToken(100);
      await analyze(get(), token, { url: 'http://10.1.2.3/' });
      const logs = (
        await get().inject({
          method: 'GET',
          url: '/token/logs?n=1&type=url-to-metadata',
          headers: { 'x-token': token },
        })
      ).json().logs;
      expect(logs[0]).toMatchObject({
        status_code: 400,
        cost: 1,
        balance: 99,
        error: 'Invalid url: refused address (not a public address)',
      });
    });
  });

  describe('502 when the site cannot be fetched, costing nothing', () => {
    it.each([
      [
        'a name that does not resolve',
        () => 'http://no-such-host.invalid/',
        'Could not fetch the URL: DNS lookup failed',
      ],
      ['a closed port', () => 'http://127.0.0.1:1/', 'Could not fetch the URL: connection failed'],
      ['a redirect loop', () => sites().http.url('/loop'), 'Could not fetch the URL: too many redirects'],
      ['a 404 answer', () => sites().https.url('/missing'), 'Could not fetch the URL: the site answered HTTP 404'],
      ['a 500 answer', () => sites().https.url('/broken'), 'Could not fetch the URL: the site answered HTTP 500'],
    ])('answers %s with 502', async (_name, url, error) => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url: url() });
      expectFailure(res, 502, error, 0);
      expect(res.headers['x-balance']).toBe('100');
      expect(await balanceOf(get(), token)).toBe(100);
    });

    it('refunds the whole 800 of an AI request that fails with 502', async () => {
      const token = await get().createToken(1000);
      expectFailure(
        await analyze(get(), token, { url: sites().https.url('/broken'), aiSummary: 'long' }),
        502,
        /HTTP 500/,
        0,
      );
      expect(await balanceOf(get(), token)).toBe(1000);
    });

    it('stops after at most 10 redirects', async () => {
      const token = await get().createToken(100);
      const before = hits(sites().http, '/loop');
      await analyze(get(), token, { url: sites().http.url('/loop') });
      expect(hits(sites().http, '/loop') - before).toBe(11);
    });
  });

  describe('plain-text answers of authentication and metering', () => {
    it('answers 401 Unauthorized without a token', async () => {
      const res = await get().inject({
        method: 'POST',
        url: '/url-to-metadata',
        headers: { 'content-type': 'application/json' },
        payload: '{"url":"https://example.com"}',
      });
      expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
        401,
        'Unauthorized',
        PLAIN,
        undefined,
      ]);
    });

    it('answers 402 when the wallet cannot pay 55, and charges nothing', async () => {
      const token = await get().createToken(54);
      const before = hits(sites().https, '/rich');
      const res = await analyze(get(), token, { url: sites().https.url('/rich') });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([402, 'Insufficient credits', PLAIN]);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '54']);
      expect(hits(sites().https, '/rich')).toBe(before);
    });

    it('answers 402 when the wallet can pay 55 but not the 800 of a summary', async () => {
      const token = await get().createToken(799);
      const res = await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'short' });
      expect([res.statusCode, res.body]).toEqual([402, 'Insufficient credits']);
      expect(await balanceOf(get(), token)).toBe(799);
    });

    it('answers 402, not 400, to malformed JSON from an empty wallet', async () => {
      const token = await get().createToken(0);
      const res = await analyze(get(), token, '{');
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([402, 'Insufficient credits', PLAIN]);
    });

    it('answers 405 to other methods', async () => {
      const token = await get().createToken(10);
      const res = await get().inject({ method: 'GET', url: '/url-to-metadata', headers: { 'x-token': token } });
      expect([res.statusCode, res.body, res.headers.allow]).toEqual([405, 'Method Not Allowed', 'POST']);
    });
  });
});

describeEachStore('POST /url-to-metadata: loopback is refused unless allowed', (kind) => {
  const { sites } = useSites();
  const get = useTestApp(kind);

  it('refuses localhost and 127.0.0.1 with 400 when OUTBOUND_ALLOW_CIDRS does not list them', async () => {
    const token = await get().createToken(100);
    const before = sites().http.requests.length;
    expectFailure(
      await analyze(get(), token, { url: sites().http.url('/rich') }),
      400,
      'Invalid url: refused address (not a public address)',
      1,
    );
    expectFailure(
      await analyze(get(), token, { url: sites().http.url('/rich', '127.0.0.1') }),
      400,
      'Invalid url: refused address (not a public address)',
      1,
    );
    expect(sites().http.requests.length).toBe(before);
  });
});

describeEachStore('POST /url-to-metadata: the time cap', (kind) => {
  const { env, sites } = useSites();
  const get = useAppWith(kind, () => ({
    env,
    overrides: (config) => ({
      // The service's outbound client with its overall limit shortened from 10 s to 1 s.
      outbound: createOutbound({
        allowCidrs: config.outboundAllowCidrs,
        extraCaPem: readFileSync(config.outboundCaFile as string, 'utf8'),
        lookup: createNameLookup(config.dnsServers),
        userAgent: 'coinop-test',
        timeoutMs: 1000,
      }),
    }),
  }));

  it('gives up on a page slower than the limit with 502, costing nothing', async () => {
    const token = await get().createToken(100);
    const started = Date.now();
    const res = await analyze(get(), token, { url: sites().https.url('/slow') });
    expectFailure(res, 502, 'Could not fetch the URL: timeout after 1s', 0);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
