import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';
import { writeTestGeoDb } from './geo-fixture.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const NO_GEO = {
  city: '',
  country: '',
  continent: '',
  latitude: '',
  longitude: '',
  region: '',
  regionCode: '',
  timezone: '',
  postalCode: '',
};
const PARIS = {
  city: 'Testville',
  country: 'FR',
  continent: 'EU',
  latitude: '48.8566',
  longitude: '2.3522',
  region: 'Ile-de-France',
  regionCode: 'IDF',
  timezone: 'Europe/Paris',
  postalCode: '75001',
};
const TOKYO = {
  city: 'Tokyo',
  country: 'JP',
  continent: 'AS',
  latitude: '35.6762',
  longitude: '139.6503',
  region: 'Tokyo',
  regionCode: '',
  timezone: 'Asia/Tokyo',
  postalCode: '100-0001',
};

async function myip(
  t: TestApp,
  token: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res: LightMyRequestResponse = await t.inject({
    method: 'GET',
    url: '/myip',
    remoteAddress,
    headers: { 'x-token': token, ...headers },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  return res.json() as Record<string, unknown>;
}

describeEachStore('GET /myip from the connection (TRUST_PROXY unset)', (kind) => {
  const get = useTestApp(kind, { env: { GEOIP_DB: writeTestGeoDb() } });

  it('reports an IPv4 caller with its geo fields, user agent and languages', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '203.0.113.9', {
      'user-agent': 'curl/8.5.0',
      'accept-language': 'fr-FR,fr;q=0.9',
    });
    expect(body).toStrictEqual({
      ip: '203.0.113.9',
      ipv6: '',
      isCurrentIpv6: false,
      userAgent: 'curl/8.5.0',
      acceptLanguage: 'fr-FR,fr;q=0.9',
      ...PARIS,
    });
  });

  it('reads a user agent and languages sent in UTF-8 as UTF-8, and other bytes as Latin-1', async () => {
    const token = await get().createToken(10);
    // Node hands header bytes over as Latin-1: the UTF-8 of `ünïcode` arrives as `Ã¼nÃ¯code`.
    const asSent = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    const body = await myip(get(), token, '203.0.113.9', {
      'user-agent': asSent('Mozilla/5.0 ünïcode ✓'),
      'accept-language': asSent('de-DE'),
    });
    expect([body.userAgent, body.acceptLanguage]).toStrictEqual(['Mozilla/5.0 ünïcode ✓', 'de-DE']);
    // A lone 0xFC byte is not UTF-8: it stays the Latin-1 character it is.
    const latin1 = await myip(get(), token, '203.0.113.9', { 'user-agent': 'Bot \u00fc' });
    expect(latin1.userAgent).toBe('Bot \u00fc');
  });

  it('reports a native IPv6 caller in ipv6, with ip empty', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '2001:db8:1::5', { 'user-agent': 'probe/1' });
    expect(body).toStrictEqual({
      ip: '',
      ipv6: '2001:db8:1::5',
      isCurrentIpv6: true,
      userAgent: 'probe/1',
      acceptLanguage: '',
      ...TOKYO,
    });
  });

  it('counts an IPv4-mapped IPv6 address (dual-stack listener) as IPv4', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '::ffff:203.0.113.9');
    expect(body).toMatchObject({ ip: '203.0.113.9', ipv6: '', isCurrentIpv6: false, city: 'Testville' });
  });

  it('derives the continent from the country when the database has none', async () => {
    const token = await get().createToken(10);
    expect(await myip(get(), token, '198.51.100.7')).toMatchObject({ ...NO_GEO, country: 'DE', continent: 'EU' });
  });

  it.each([
    ['an address the database does not know', '192.0.2.44'],
    ['a private address', '10.0.0.7'],
    ['loopback', '::1'],
  ])('answers %s with empty geo fields, not an error', async (_name, address) => {
    const token = await get().createToken(10);
    expect(await myip(get(), token, address)).toMatchObject(NO_GEO);
  });

  it('ignores X-Forwarded-For from a connection no proxy setting trusts', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '198.51.100.20', { 'x-forwarded-for': '203.0.113.9' });
    expect(body).toMatchObject({ ip: '198.51.100.20', country: 'DE' });
  });

  it('costs 1 credit and is logged under myip', async () => {
    const token = await get().createToken(10);
    const res = await get().inject({
      method: 'GET',
      url: '/myip',
      remoteAddress: '203.0.113.9',
      headers: { 'x-token': token },
    });
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', '9']);
    const logs = (await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } })).json()
      .logs;
    expect(logs[0]).toMatchObject({
      method: 'GET',
      path: '/myip',
      endpoint: 'myip',
      status_code: 200,
      cost: 1,
      balance: 9,
    });
  });
});

describeEachStore('GET /myip behind trusted proxies (TRUST_PROXY set)', (kind) => {
  const get = useTestApp(kind, { env: { GEOIP_DB: writeTestGeoDb(), TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' } });

  it('believes X-Forwarded-For from a trusted proxy', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
    expect(body).toMatchObject({ ip: '203.0.113.9', ipv6: '', isCurrentIpv6: false, ...PARIS });
  });

  it('takes the nearest address not itself a trusted proxy, whatever the client wrote further left', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7, 2001:db8:1::5, 10.1.1.1' });
    expect(body).toMatchObject({ ip: '', ipv6: '2001:db8:1::5', isCurrentIpv6: true, ...TOKYO });
  });

  it('ignores X-Forwarded-For when the connection is not from a trusted proxy', async () => {
    const token = await get().createToken(10);
    const body = await myip(get(), token, '198.51.100.20', { 'x-forwarded-for': '203.0.113.9' });
    expect(body).toMatchObject({ ip: '198.51.100.20', country: 'DE' });
  });

  it('answers with the proxy itself when it sends no X-Forwarded-For', async () => {
    const token = await get().createToken(10);
    expect(await myip(get(), token, '10.2.3.4')).toMatchObject({ ip: '10.2.3.4', ...NO_GEO });
  });
});

describeEachStore('GET /myip with the bundled database (GEOIP_DB unset)', (kind) => {
  const get = useTestApp(kind);

  describe('a public address', () => {
    it('gets a country and its continent from the bundled country database; finer fields stay empty', async () => {
      const token = await get().createToken(10);
      const body = await myip(get(), token, '8.8.8.8');
      expect(body.country).toMatch(/^[A-Z]{2}$/);
      expect(body.continent).toMatch(/^(AF|AN|AS|EU|NA|OC|SA)$/);
      expect(body).toMatchObject({
        city: '',
        latitude: '',
        longitude: '',
        region: '',
        regionCode: '',
        timezone: '',
        postalCode: '',
      });
    });
  });
});
