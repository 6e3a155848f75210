import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { errors } from '../../../src/errors.js';
import type { DnsLookup } from '../../../src/features/dns/dns-lookup.js';
import { balanceOf, FAST, lookup, PLAIN, useDnsApp } from './route-fixtures.js';

describeEachStore('POST /dns-lookup: outbound address guard', (kind) => {
  const { app, dns } = useDnsApp(kind);

  const refused: ReadonlyArray<readonly [string, string]> = [
    ['loopback', '127.0.0.1'],
    ['loopback with a port', '127.0.0.1:53'],
    ['IPv6 loopback', '::1'],
    ['private (10/8)', '10.1.2.3'],
    ['private (192.168/16)', '192.168.0.1'],
    ['link-local metadata', '169.254.169.254'],
    ['unspecified', '0.0.0.0'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['IPv6 unique-local', '[fd00::53]:53'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ];
  for (const [what, server] of refused) {
    it(`refuses a ${what} propagation server with 400, charging 5`, async () => {
      const token = await app().createToken(100);
      const res = await lookup(app(), token, {
        domains: ['example.test'],
        checkPropagation: true,
        propagationServers: ['9.9.9.9', server],
        ...FAST,
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe(PLAIN);
      expect(res.body).toMatch(/^Invalid propagationServers\[1\]: .+ is not a public address$/);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
    });
  }

  it('refuses a propagation server named by a host that resolves to loopback, and never asks it', async () => {
    const token = await app().createToken(100);
    const before = dns().queriesFor('example.test').length;
    const res = await lookup(app(), token, {
      domains: ['example.test'],
      checkPropagation: true,
      propagationServers: [`resolver.test:${dns().port}`],
      ...FAST,
    });
    expect([res.statusCode, res.body]).toEqual([
      400,
      'Invalid propagationServers[0]: resolver.test resolves to a non-public address',
    ]);
    expect(dns().queriesFor('example.test').length).toBe(before);
  });

  it('refuses private servers even when the propagation check is off', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, { domains: ['example.test'], propagationServers: [dns().address], ...FAST });
    expect(res.statusCode).toBe(400);
  });

  it('does not open a TLS connection to a domain that resolves to a non-public address', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, {
      domains: ['loopback.test'],
      recordTypes: ['A'],
      enableEnrichment: false,
      ...FAST,
      enableSslInspection: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0].lookupResult).toMatchObject({
      records: {},
      ssl_error: 'loopback.test resolves to a non-public address',
      warnings: [
        '1 non-public address removed from the answers (NON_PUBLIC_ADDRESS)',
        'SSL inspection failed: loopback.test resolves to a non-public address',
      ],
    });
    expect(await balanceOf(app(), token)).toBe(95);
  });
});

/** The app as it runs, with a DNS lookup that fails as told in place of the real one. */
describeEachStore('POST /dns-lookup: 5xx answers cost nothing', (kind) => {
  let failure: Error = new Error('resolver crashed');
  const failing: DnsLookup = {
    lookup: async () => {
      throw failure;
    },
  };
  const app = useTestApp(kind, { overrides: () => ({ dns: failing }) });

  const call = (value: string) => lookup(app(), value, { domains: ['example.test'] });

  for (const [status, make] of [
    [500, () => new Error('resolver crashed')],
    [502, () => errors.badGateway('DNS resolvers unreachable')],
    [503, () => errors.unavailable('DNS lookups paused')],
  ] as const) {
    it(`refunds the 5 credits of a ${status} answer and logs cost 0`, async () => {
      failure = make();
      const value = await app().createToken(100);
      const res = await call(value);
      expect(res.statusCode).toBe(status);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '100']);
      expect(await balanceOf(app(), value)).toBe(100);
      const logs = (await app().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': value } })).json()
        .logs;
      expect(logs[0]).toMatchObject({
        path: '/dns-lookup',
        endpoint: 'service',
        status_code: status,
        cost: 0,
        balance: 100,
      });
    });
  }

  it('still charges 5 for a 400 on the same route', async () => {
    const value = await app().createToken(100);
    const res = await lookup(app(), value, { domains: [] });
    expect([res.statusCode, res.headers['x-cost'], res.headers['x-balance']]).toEqual([400, '5', '95']);
  });
});
