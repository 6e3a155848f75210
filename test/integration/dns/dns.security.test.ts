import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { loadConfig } from '../../../src/config.js';
import { createDeps } from '../../../src/deps.js';
import type { Deps } from '../../../src/deps.js';
import { errors } from '../../../src/errors.js';
import { registerErrorHandling } from '../../../src/http/error-handler.js';
import { registerMetering } from '../../../src/http/metering.js';
import { registerValidation } from '../../../src/http/validation.js';
import { logRoutes } from '../../../src/features/logs/logs.routes.js';
import { dnsRoutes } from '../../../src/features/dns/dns.routes.js';
import type { DnsLookup } from '../../../src/features/dns/dns-lookup.js';
import { insertWallet } from '../../../src/features/tokens/wallet.queries.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { newToken } from '../../../src/lib/ids.js';
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
      const res = await lookup(app(), token, { domains: ['example.test'], checkPropagation: true, propagationServers: ['9.9.9.9', server], ...FAST });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe(PLAIN);
      expect(res.body).toMatch(/^Invalid propagationServers\[1\]: .+ is not a public address$/);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
    });
  }

  it('refuses a propagation server named by a host that resolves to loopback, and never asks it', async () => {
    const token = await app().createToken(100);
    const before = dns().queriesFor('example.test').length;
    const res = await lookup(app(), token, { domains: ['example.test'], checkPropagation: true, propagationServers: [`resolver.test:${dns().port}`], ...FAST });
    expect([res.statusCode, res.body]).toEqual([400, 'Invalid propagationServers[0]: resolver.test resolves to 127.0.0.1, which is not a public address']);
    expect(dns().queriesFor('example.test').length).toBe(before);
  });

  it('refuses private servers even when the propagation check is off', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, { domains: ['example.test'], propagationServers: [dns().address], ...FAST });
    expect(res.statusCode).toBe(400);
  });

  it('does not open a TLS connection to a domain that resolves to a non-public address', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, { domains: ['loopback.test'], recordTypes: ['A'], enableEnrichment: false, ...FAST, enableSslInspection: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0].lookupResult).toMatchObject({
      ssl_error: 'loopback.test resolves to a non-public address',
      warnings: ['SSL inspection failed: loopback.test resolves to a non-public address'],
    });
    expect(await balanceOf(app(), token)).toBe(95);
  });
});

/** The real metering and error handling around the DNS route, with a lookup that fails as told. */
describeEachStore('POST /dns-lookup: 5xx answers cost nothing', (kind) => {
  let database: ScratchDatabase;
  let deps: Deps;
  let app: FastifyInstance;
  let failure: Error = new Error('resolver crashed');
  const failing: DnsLookup = {
    lookup: async () => {
      throw failure;
    },
  };

  beforeAll(async () => {
    database = await scratchDatabase(kind);
    const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', SMTP_PORT: '0', DNS_SERVERS: '127.0.0.1:9' });
    deps = createDeps(config, { logger: pino({ level: 'silent' }) });
    await deps.store.migrate();
    app = Fastify({ loggerInstance: deps.logger as FastifyBaseLogger });
    registerValidation(app);
    registerErrorHandling(app, deps);
    registerMetering(app, deps);
    await app.register(dnsRoutes, { deps, lookup: failing });
    await app.register(logRoutes, { deps });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await deps?.logs.flush();
    await deps?.outbound.close();
    await deps?.store.close();
    await database?.drop();
  });

  const token = async () => {
    const value = newToken();
    await deps.store.write((tx) => insertWallet(tx, sha256Hex(value), 100, deps.clock.now()));
    return value;
  };
  const call = (value: string) =>
    app.inject({ method: 'POST', url: '/dns-lookup', headers: { 'x-token': value, 'content-type': 'application/json' }, payload: JSON.stringify({ domains: ['example.test'] }) });
  const balance = async (value: string) =>
    (await deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', [sha256Hex(value)]))?.balance;

  for (const [status, make] of [
    [500, () => new Error('resolver crashed')],
    [502, () => errors.badGateway('DNS resolvers unreachable')],
    [503, () => errors.unavailable('DNS lookups paused')],
  ] as const) {
    it(`refunds the 5 credits of a ${status} answer and logs cost 0`, async () => {
      failure = make();
      const value = await token();
      const res = await call(value);
      expect(res.statusCode).toBe(status);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '100']);
      expect(await balance(value)).toBe(100);
      const logs = (await app.inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': value } })).json().logs;
      expect(logs[0]).toMatchObject({ path: '/dns-lookup', endpoint: 'service', status_code: status, cost: 0, balance: 100 });
    });
  }

  it('still charges 5 for a 400 on the same route', async () => {
    const value = await token();
    const res = await app.inject({ method: 'POST', url: '/dns-lookup', headers: { 'x-token': value, 'content-type': 'application/json' }, payload: '{"domains":[]}' });
    expect([res.statusCode, res.headers['x-cost'], res.headers['x-balance']]).toEqual([400, '5', '95']);
  });
});
