import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.js';
import type { DepsOverrides } from '../../../src/deps.js';
import { createDnsLookup } from '../../../src/features/dns/dns-lookup.js';
import type { DnsLookupSettings } from '../../../src/features/dns/dns-lookup.js';
import { resolverAddresses } from '../../../src/outbound/dns/server-address.js';
import { createDnsClient } from '../../../src/outbound/dns/wire-client.js';
import { systemClock } from '../../../src/lib/time.js';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { validatedBody } from '../../helpers/validated-dns-body.js';
import { ALL_TYPES, lookup, PLAIN, useDnsApp } from './route-fixtures.js';

/** The request limits docs/reference.md#dns-url-metadata-caller-ip-recharge states (request-budget.ts). */
const REQUEST_DEADLINE_MS = 30_000;
const MAX_PACKETS_PER_REQUEST = 500;

/** The largest per-query limits of docs/contract.md#dns-lookup: one query alone could take 60 s × 11 tries + 100 s × 10 pauses. */
const WORST = { timeout: 60_000, maxRetries: 10, retryDelay: 100_000 } as const;
const QUIET = { enableEnrichment: false, performReverseLookup: false, enableSslInspection: false } as const;

/** A DNS server that reads every query and never answers; it counts the packets. */
async function startSilentServer(): Promise<{ readonly port: number; packets(): number; close(): Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  let packets = 0;
  socket.on('message', () => packets++);
  const port = await new Promise<number>((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)),
  );
  return { port, packets: () => packets, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** A TCP server that accepts connections and never speaks: a TLS handshake there waits forever. */
async function startMuteTcpServer(): Promise<{ readonly port: number; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const SHORT_DEADLINE_MS = 2500;
/** The app's DNS lookup as deps builds it, with a shorter request deadline (the packet cap kept). */
const withShortDeadline = (config: Config): DepsOverrides => ({
  dns: createDnsLookup({
    client: createDnsClient(resolverAddresses(config.dnsServers)),
    policy: createAddressPolicy(config.outboundAllowCidrs),
    clock: systemClock,
    requestLimits: { deadlineMs: SHORT_DEADLINE_MS, maxPackets: MAX_PACKETS_PER_REQUEST },
  }),
});

describeEachStore(
  'POST /dns-lookup: a request ends at its deadline, however long the contract lets each query take',
  (kind) => {
    const env: Record<string, string> = {};
    let silent: Awaited<ReturnType<typeof startSilentServer>> | undefined;
    beforeAll(async () => {
      silent = await startSilentServer();
      env.DNS_SERVERS = `127.0.0.1:${silent.port}`;
    });
    afterAll(async () => {
      await silent?.close();
    });
    const app = useTestApp(kind, { env, overrides: withShortDeadline });

    it('answers 200 at the deadline with every outstanding query as TIMEOUT and a warning naming the deadline', async () => {
      const token = await app().createToken(100);
      const started = performance.now();
      const res = await lookup(app(), token, { domains: ['example.com', 'example.org'], ...WORST });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(SHORT_DEADLINE_MS - 50);
      expect(elapsed).toBeLessThan(SHORT_DEADLINE_MS + 1500);
      expect(res.statusCode).toBe(200);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
      const body = res.json();
      expect(body.summary).toMatchObject({ totalDomains: 2, failedLookups: 2 });
      for (const result of body.results) {
        expect(result.lookupResult.errors).toEqual({
          A: 'TIMEOUT',
          AAAA: 'TIMEOUT',
          MX: 'TIMEOUT',
          TXT: 'TIMEOUT',
          NS: 'TIMEOUT',
          CNAME: 'TIMEOUT',
        });
        expect(result.lookupResult.warnings).toContain(
          `Request deadline of ${SHORT_DEADLINE_MS} ms reached: queries still outstanding are reported as TIMEOUT`,
        );
      }
      expect(silent?.packets()).toBeLessThanOrEqual(MAX_PACKETS_PER_REQUEST);
    });
  },
);

describe('the default request deadline', () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(async () => {
    await silent?.close();
  });

  it(
    `is ${REQUEST_DEADLINE_MS} ms: a lookup with timeout 60000, maxRetries 10, retryDelay 100000 against a silent server ends then`,
    { timeout: 40_000 },
    async () => {
      const settings: DnsLookupSettings = {
        client: createDnsClient([{ host: '127.0.0.1', port: silent.port }]),
        policy: createAddressPolicy([]),
        clock: systemClock,
      };
      const started = performance.now();
      const response = await createDnsLookup(settings).lookup(validatedBody({ domains: ['example.com'], ...WORST }), 1);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(REQUEST_DEADLINE_MS - 50);
      expect(elapsed).toBeLessThan(REQUEST_DEADLINE_MS + 3000);
      expect(response.results[0]?.lookupResult.errors).toMatchObject({ A: 'TIMEOUT', TXT: 'TIMEOUT' });
      expect(silent.packets()).toBeLessThanOrEqual(MAX_PACKETS_PER_REQUEST);
    },
  );
});

describeEachStore('POST /dns-lookup: packets per request are capped', (kind) => {
  const { app, dns } = useDnsApp(kind);

  it(`sends at most ${MAX_PACKETS_PER_REQUEST} packets; the queries past the cap fail as PACKET_LIMIT, with a warning`, async () => {
    // Every try answered SERVFAIL at once: 10 domains × 10 types × 11 tries would be 1100 packets.
    const domains = Array.from({ length: 10 }, (_, index) => `burst${index}.test`);
    dns().setBehaviour((query) => (query.name.startsWith('burst') ? { rcode: 'SERVFAIL' } : undefined));
    try {
      const token = await app().createToken(100);
      const before = dns().queries.length;
      const res = await lookup(app(), token, {
        domains,
        recordTypes: ALL_TYPES,
        timeout: 1000,
        maxRetries: 10,
        retryDelay: 0,
        ...QUIET,
      });
      expect(res.statusCode).toBe(200);
      expect(dns().queries.length - before).toBeLessThanOrEqual(MAX_PACKETS_PER_REQUEST);
      const results = res.json().results as Array<{
        lookupResult: { errors: Record<string, string>; warnings?: string[] };
      }>;
      const failures = results.flatMap((result) => Object.values(result.lookupResult.errors));
      expect(failures).toContain('PACKET_LIMIT');
      expect(failures.filter((failure) => failure !== 'PACKET_LIMIT' && failure !== 'SERVFAIL')).toEqual([]);
      const capped = results.find((result) => Object.values(result.lookupResult.errors).includes('PACKET_LIMIT'));
      expect(capped?.lookupResult.warnings).toContain(
        `Packet limit of ${MAX_PACKETS_PER_REQUEST} per request reached: later queries were not sent (PACKET_LIMIT)`,
      );
    } finally {
      dns().setBehaviour(undefined);
    }
  });
});

describeEachStore('POST /dns-lookup: propagation servers on port 53 only', (kind) => {
  const { app, dns } = useDnsApp(kind);

  const refusedPorts: ReadonlyArray<readonly [string, string]> = [
    ['an IPv4 address', '8.8.8.8:6379'],
    ['an IPv6 address', '[2001:4860:4860::8888]:443'],
    ['a name', 'public-resolver.test:5353'],
  ];
  for (const [what, server] of refusedPorts) {
    it(`refuses ${what} with another port with 400, charging 5`, async () => {
      dns().setBehaviour((query) =>
        query.name === 'public-resolver.test' && query.type === 'A'
          ? { answers: [rr('public-resolver.test', 'A', '9.9.9.9')] }
          : undefined,
      );
      try {
        const token = await app().createToken(100);
        // The servers are judged even with the check off, which keeps a run against code without the rule from sending them anything.
        const res = await lookup(app(), token, {
          domains: ['example.test'],
          propagationServers: [server],
          timeout: 1000,
          maxRetries: 0,
          retryDelay: 0,
          ...QUIET,
        });
        expect([res.statusCode, res.body]).toEqual([400, 'Invalid propagationServers[0]: port must be 53']);
        expect(res.headers['content-type']).toBe(PLAIN);
        expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
      } finally {
        dns().setBehaviour(undefined);
      }
    });
  }

  it('accepts a public server on port 53, written with or without it', async () => {
    const token = await app().createToken(100);
    // The check is off: the servers are judged, never asked.
    const res = await lookup(app(), token, {
      domains: ['example.test'],
      propagationServers: ['8.8.8.8:53', '9.9.9.9'],
      timeout: 1000,
      maxRetries: 0,
      retryDelay: 0,
      ...QUIET,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('the TLS inspection of a request', () => {
  let dns: TestDnsServer;
  let mute: Awaited<ReturnType<typeof startMuteTcpServer>>;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: [rr('secure.test', 'A', '127.0.0.1')] });
    mute = await startMuteTcpServer();
  });
  afterAll(async () => {
    await dns?.close();
    await mute?.close();
  });

  it('ends at the request deadline when the handshake never comes', async () => {
    const deadlineMs = 1500;
    const lookupService = createDnsLookup({
      client: createDnsClient([{ host: '127.0.0.1', port: dns.port }]),
      policy: createAddressPolicy(['127.0.0.0/8']),
      clock: systemClock,
      tlsPort: mute.port,
      requestLimits: { deadlineMs, maxPackets: MAX_PACKETS_PER_REQUEST },
    });
    const started = performance.now();
    const response = await lookupService.lookup(
      validatedBody({
        domains: ['secure.test'],
        recordTypes: ['A'],
        enableEnrichment: false,
        performReverseLookup: false,
        ...WORST,
      }),
      1,
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(deadlineMs + 1000);
    expect(response.results[0]?.lookupResult.ssl_error).toMatch(/^no TLS handshake within \d+ ms$/);
  });
});
