import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../../src/features/dns/dns-lookup.js';
import type { DnsLookupSettings } from '../../../src/features/dns/dns-lookup.js';
import type { DnsLookupBody } from '../../../src/features/dns/dns.schemas.js';
import { createDnsClient } from '../../../src/outbound/dns/wire-client.js';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';
import { systemClock } from '../../../src/lib/time.js';
import { ApiError } from '../../../src/errors.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { validatedBody } from '../../helpers/validated-dns-body.js';

const FAST = {
  timeout: 1000,
  maxRetries: 0,
  retryDelay: 0,
  enableSslInspection: false,
  enableEnrichment: false,
} as const;

const MAIN_ZONE = [
  rr('prop.test', 'A', '192.0.2.1', 300),
  rr('prop.test', 'MX', { preference: 10, exchange: 'mx.prop.test' }, 300),
  rr('resolver.test', 'A', '127.0.0.1'),
  rr('web.test', 'A', '192.0.2.1'),
  rr('web.test', 'A', '192.0.2.2'),
  rr('web.test', 'AAAA', '2001:db8::1'),
  rr('web.test', 'MX', { preference: 10, exchange: 'mx.web.test' }),
  rr('1.2.0.192.in-addr.arpa', 'PTR', 'web.test'),
  rr('2.2.0.192.in-addr.arpa', 'PTR', 'web.test'),
  rr('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa', 'PTR', 'v6.web.test'),
];

async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  const port = await new Promise<number>((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)),
  );
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

describe('propagation checks and reverse lookups against loopback DNS servers', () => {
  let main: TestDnsServer;
  let agrees: TestDnsServer;
  let disagrees: TestDnsServer;
  let empty: TestDnsServer;
  let deadPort: number;
  // The lookup as the route calls it: with the body validated and its defaults filled in.
  const build = (extra: Partial<DnsLookupSettings> = {}) => {
    const lookup = createDnsLookup({
      client: createDnsClient([{ host: '127.0.0.1', port: main.port }]),
      // Loopback for the servers, the documentation ranges for the answers.
      policy: createAddressPolicy(['127.0.0.0/8', '192.0.2.0/24', '2001:db8::/32']),
      clock: systemClock,
      ...extra,
    });
    return { lookup: (body: DnsLookupBody) => lookup.lookup(validatedBody(body), 1) };
  };

  beforeAll(async () => {
    main = await startDnsServer({ zone: MAIN_ZONE });
    // Same data, other TTLs (a cache counting down): still the same answer.
    agrees = await startDnsServer({
      zone: [
        rr('prop.test', 'A', '192.0.2.1', 17),
        rr('prop.test', 'MX', { preference: 10, exchange: 'MX.prop.test' }, 5),
      ],
    });
    disagrees = await startDnsServer({
      zone: [
        rr('prop.test', 'A', '192.0.2.99', 300),
        rr('prop.test', 'MX', { preference: 10, exchange: 'mx.prop.test' }, 300),
      ],
    });
    empty = await startDnsServer({ zone: [] });
    deadPort = await closedUdpPort();
  });
  afterAll(async () => {
    await Promise.all([main, agrees, disagrees, empty].map((server) => server?.close()));
  });

  it('asks every chosen server for every record type and compares each with the main answer', async () => {
    const servers = [agrees.address, disagrees.address, empty.address, `127.0.0.1:${deadPort}`];
    const response = await build().lookup({
      domains: ['prop.test'],
      recordTypes: ['A', 'MX'],
      checkPropagation: true,
      propagationServers: servers,
      ...FAST,
    });
    expect(response.summary.propagationCheckEnabled).toBe(true);
    const [a, mx] = response.results[0]?.propagationResults ?? [];
    expect(a).toMatchObject({ domain: 'prop.test', recordType: 'A', isPropagated: false, consistencyPercentage: 25 });
    expect(a?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(a?.servers[agrees.address]).toMatchObject({
      records: [{ type: 'A', address: '192.0.2.1', ttl: 17 }],
      location: 'custom',
      matches: true,
    });
    expect(a?.servers[disagrees.address]).toMatchObject({
      records: [{ type: 'A', address: '192.0.2.99', ttl: 300 }],
      matches: false,
    });
    expect(a?.servers[empty.address]).toMatchObject({ records: [], error: 'NXDOMAIN', matches: false });
    expect(a?.servers[`127.0.0.1:${deadPort}`]).toMatchObject({ records: [], error: 'UNREACHABLE', matches: false });
    for (const answer of Object.values(a?.servers ?? {})) expect(Number.isInteger(answer.responseTime)).toBe(true);
    expect(Object.keys(a?.servers ?? {})).toEqual(servers);
    expect(mx).toMatchObject({ recordType: 'MX', consistencyPercentage: 50, isPropagated: false });
    expect(mx?.servers[disagrees.address]?.matches).toBe(true);
  });

  it('says a record has propagated when every server gives the main answer', async () => {
    const response = await build().lookup({
      domains: ['prop.test'],
      recordTypes: ['A'],
      checkPropagation: true,
      propagationServers: [agrees.address, main.address],
      ...FAST,
    });
    expect(response.results[0]?.propagationResults).toMatchObject([{ isPropagated: true, consistencyPercentage: 100 }]);
  });

  it('counts servers that agree a name does not exist as matching', async () => {
    const response = await build().lookup({
      domains: ['gone.test'],
      recordTypes: ['A'],
      checkPropagation: true,
      propagationServers: [empty.address],
      ...FAST,
    });
    expect(response.results[0]?.propagationResults).toMatchObject([
      { isPropagated: true, servers: { [empty.address]: { error: 'NXDOMAIN', matches: true } } },
    ]);
    expect(response.summary.failedLookups).toBe(1);
  });

  it('accepts a server given by a name that resolves to an allowed address', async () => {
    const name = `resolver.test:${agrees.port}`;
    const response = await build().lookup({
      domains: ['prop.test'],
      recordTypes: ['A'],
      checkPropagation: true,
      propagationServers: [name],
      ...FAST,
    });
    expect(response.results[0]?.propagationResults?.[0]?.servers[name]).toMatchObject({ matches: true });
  });

  it('asks the default resolvers, with their location labels, when no servers are given', async () => {
    const lookup = build({
      propagationDefaults: [
        {
          name: 'test-resolver',
          address: { host: '127.0.0.1', port: agrees.port },
          location: 'Test resolver (anycast, ZZ)',
        },
      ],
    });
    const response = await lookup.lookup({
      domains: ['prop.test'],
      recordTypes: ['A'],
      checkPropagation: true,
      ...FAST,
    });
    expect(response.results[0]?.propagationResults?.[0]?.servers).toEqual({
      'test-resolver': {
        records: [{ type: 'A', address: '192.0.2.1', ttl: 17 }],
        responseTime: expect.any(Number),
        location: 'Test resolver (anycast, ZZ)',
        matches: true,
      },
    });
  });

  it('leaves propagationResults out when the check is off', async () => {
    const response = await build().lookup({ domains: ['prop.test'], recordTypes: ['A'], ...FAST });
    expect(response.results[0]).not.toHaveProperty('propagationResults');
    expect(response.summary.propagationCheckEnabled).toBe(false);
  });

  it('refuses private propagation servers unless OUTBOUND_ALLOW_CIDRS allows them', async () => {
    const strict = build({ policy: createAddressPolicy([]) });
    const asked = agrees.queries.length;
    const refusal = async (servers: string[]) => {
      try {
        await strict.lookup({ domains: ['prop.test'], checkPropagation: true, propagationServers: servers, ...FAST });
      } catch (error) {
        if (error instanceof ApiError) return `${error.statusCode} ${error.body}`;
        throw error;
      }
      return 'accepted';
    };
    expect(await refusal([agrees.address])).toBe(
      '400 Invalid propagationServers[0]: 127.0.0.1 is not a public address',
    );
    expect(await refusal(['9.9.9.9', '10.0.0.53'])).toBe(
      '400 Invalid propagationServers[1]: 10.0.0.53 is not a public address',
    );
    expect(await refusal(['169.254.169.254'])).toBe(
      '400 Invalid propagationServers[0]: 169.254.169.254 is not a public address',
    );
    expect(await refusal(['[fe80::1]:53'])).toBe('400 Invalid propagationServers[0]: fe80::1 is not a public address');
    expect(await refusal([`resolver.test:${agrees.port}`])).toBe(
      `400 Invalid propagationServers[0]: resolver.test resolves to a non-public address`,
    );
    expect(await refusal(['nowhere.test'])).toBe('400 Invalid propagationServers[0]: nowhere.test does not resolve');
    expect(await refusal(['not a server'])).toBe(
      '400 Invalid propagationServers[0]: must be an IP address or host name, optionally with :port',
    );
    // The refused servers were never asked anything.
    expect(agrees.queries.length).toBe(asked);
  });

  it('looks up PTR names of every address a domain returned', async () => {
    const response = await build().lookup({ domains: ['web.test'], recordTypes: ['A', 'AAAA'], ...FAST });
    const result = response.results[0]?.lookupResult;
    expect(result?.reverseLookup?.hostnames).toEqual(['web.test', 'v6.web.test']);
    expect(Number.isInteger(result?.reverseLookup?.responseTime)).toBe(true);
  });

  it('turns an IP address into a PTR lookup, with its reverse lookup', async () => {
    const response = await build().lookup({ domains: ['192.0.2.1'], recordTypes: ['A', 'MX'], ...FAST });
    expect(response.results[0]).toMatchObject({
      domain: '192.0.2.1',
      lookupResult: {
        domain: '192.0.2.1',
        records: { PTR: [{ type: 'PTR', value: 'web.test', ttl: 300 }] },
        reverseLookup: { hostnames: ['web.test'] },
      },
    });
    expect(main.queriesFor('1.2.0.192.in-addr.arpa', 'A')).toHaveLength(0);
  });

  it('leaves reverseLookup out when disabled, or when there is no address', async () => {
    const off = await build().lookup({
      domains: ['web.test'],
      recordTypes: ['A'],
      performReverseLookup: false,
      ...FAST,
    });
    expect(off.results[0]?.lookupResult).not.toHaveProperty('reverseLookup');
    const noAddress = await build().lookup({ domains: ['web.test'], recordTypes: ['MX'], ...FAST });
    expect(noAddress.results[0]?.lookupResult).not.toHaveProperty('reverseLookup');
  });
});
