import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsClient } from '../../../src/outbound/dns/wire-client.js';
import type { DnsClient } from '../../../src/outbound/dns/wire-client.js';
import type { QueryOptions } from '../../../src/outbound/dns/dns-types.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';

const FAST: QueryOptions = { timeoutMs: 1000, maxRetries: 0, retryDelayMs: 0 };
const longText = 'v=DKIM1; k=rsa; p=' + 'A'.repeat(3000);

const ZONE = [
  rr('example.test', 'A', '192.0.2.10', 300),
  rr('example.test', 'A', '192.0.2.11', 300),
  rr('example.test', 'AAAA', '2001:db8::10', 600),
  rr('example.test', 'MX', { preference: 10, exchange: 'mx1.example.test' }, 3600),
  rr('example.test', 'MX', { preference: 20, exchange: 'mx2.example.test' }, 3600),
  rr('example.test', 'TXT', ['v=spf1 ', '-all'], 120),
  rr('example.test', 'NS', 'ns1.example.test', 86400),
  rr(
    'example.test',
    'SOA',
    {
      mname: 'ns1.example.test',
      rname: 'hostmaster.example.test',
      serial: 2026060101,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 300,
    },
    900,
  ),
  rr('example.test', 'CAA', { flags: 0, tag: 'issue', value: 'letsencrypt.org' }, 3600),
  rr('example.test', 'CAA', { flags: 128, tag: 'iodef', value: 'mailto:security@example.test' }, 3600),
  rr('_sip._tcp.example.test', 'SRV', { priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }, 1800),
  rr('10.2.0.192.in-addr.arpa', 'PTR', 'host.example.test', 7200),
  rr('www.example.test', 'CNAME', 'edge.example.test', 60),
  rr('edge.example.test', 'CNAME', 'origin.example.test', 30),
  rr('origin.example.test', 'A', '192.0.2.20', 20),
  rr('loop-a.example.test', 'CNAME', 'loop-b.example.test', 60),
  rr('loop-b.example.test', 'CNAME', 'loop-a.example.test', 60),
  rr(
    'big.example.test',
    'TXT',
    Array.from({ length: Math.ceil(longText.length / 255) }, (_, i) => longText.slice(i * 255, (i + 1) * 255)),
    45,
  ),
  rr('down.example.test', 'A', '192.0.2.99', 300),
];

async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  const port = await new Promise<number>((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)),
  );
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

describe('DNS wire client against a loopback server', () => {
  let dns: TestDnsServer;
  let client: DnsClient;

  beforeAll(async () => {
    dns = await startDnsServer({ zone: ZONE });
    client = createDnsClient([{ host: '127.0.0.1', port: dns.port }]);
  });
  afterAll(async () => {
    await dns.close();
  });

  it('returns every record type in the shapes of the contract, each with its type and TTL', async () => {
    const q = (name: string, type: Parameters<DnsClient['query']>[1]) => client.query(name, type, FAST);
    expect(await q('example.test', 'A')).toMatchObject({
      ok: true,
      records: [
        { type: 'A', address: '192.0.2.10', ttl: 300 },
        { type: 'A', address: '192.0.2.11', ttl: 300 },
      ],
    });
    expect(await q('example.test', 'AAAA')).toMatchObject({
      ok: true,
      records: [{ type: 'AAAA', address: '2001:db8::10', ttl: 600 }],
    });
    expect(await q('example.test', 'MX')).toMatchObject({
      ok: true,
      records: [
        { type: 'MX', exchange: 'mx1.example.test', priority: 10, ttl: 3600 },
        { type: 'MX', exchange: 'mx2.example.test', priority: 20, ttl: 3600 },
      ],
    });
    expect(await q('example.test', 'TXT')).toMatchObject({
      ok: true,
      records: [{ type: 'TXT', entries: ['v=spf1 ', '-all'], ttl: 120 }],
    });
    expect(await q('example.test', 'NS')).toMatchObject({
      ok: true,
      records: [{ type: 'NS', value: 'ns1.example.test', ttl: 86400 }],
    });
    expect(await q('example.test', 'SOA')).toMatchObject({
      ok: true,
      records: [
        {
          type: 'SOA',
          nsname: 'ns1.example.test',
          hostmaster: 'hostmaster.example.test',
          serial: 2026060101,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          minttl: 300,
          ttl: 900,
        },
      ],
    });
    expect(await q('example.test', 'CAA')).toMatchObject({
      ok: true,
      records: [
        { type: 'CAA', flags: 0, tag: 'issue', value: 'letsencrypt.org', ttl: 3600 },
        { type: 'CAA', flags: 128, tag: 'iodef', value: 'mailto:security@example.test', ttl: 3600 },
      ],
    });
    expect(await q('_sip._tcp.example.test', 'SRV')).toMatchObject({
      ok: true,
      records: [{ type: 'SRV', priority: 10, weight: 60, port: 5060, target: 'sip.example.test', ttl: 1800 }],
    });
    expect(await q('10.2.0.192.in-addr.arpa', 'PTR')).toMatchObject({
      ok: true,
      records: [{ type: 'PTR', value: 'host.example.test', ttl: 7200 }],
    });
    expect(await q('www.example.test', 'CNAME')).toMatchObject({
      ok: true,
      records: [{ type: 'CNAME', value: 'edge.example.test', ttl: 60 }],
    });
  });

  it('matches names case-insensitively and ignores a trailing dot', async () => {
    expect(await client.query('EXAMPLE.test.', 'A', FAST)).toMatchObject({
      ok: true,
      records: [{ address: '192.0.2.10' }, { address: '192.0.2.11' }],
    });
  });

  it('answers NXDOMAIN for a name that does not exist, without retrying it', async () => {
    const before = dns.queriesFor('missing.example.test').length;
    const result = await client.query('missing.example.test', 'A', { timeoutMs: 1000, maxRetries: 3, retryDelayMs: 0 });
    expect(result).toMatchObject({ ok: false, failure: 'NXDOMAIN' });
    expect(dns.queriesFor('missing.example.test').length - before).toBe(1);
  });

  it('answers an empty list (not an error) when the name exists without records of the type', async () => {
    expect(await client.query('example.test', 'SRV', FAST)).toMatchObject({ ok: true, records: [] });
  });

  it('follows a CNAME chain to the records of the asked type, with the TTLs of those records', async () => {
    expect(await client.query('www.example.test', 'A', FAST)).toMatchObject({
      ok: true,
      records: [{ type: 'A', address: '192.0.2.20', ttl: 20 }],
    });
  });

  it('reports a CNAME loop instead of following it forever', async () => {
    expect(await client.query('loop-a.example.test', 'A', FAST)).toMatchObject({ ok: false, failure: 'CNAME_LOOP' });
  });

  it('retries SERVFAIL exactly maxRetries times, then reports SERVFAIL', async () => {
    dns.setBehaviour((query) => (query.name === 'down.example.test' ? { rcode: 'SERVFAIL' } : undefined));
    try {
      const result = await client.query('down.example.test', 'A', { timeoutMs: 1000, maxRetries: 2, retryDelayMs: 0 });
      expect(result).toMatchObject({ ok: false, failure: 'SERVFAIL' });
      expect(dns.queriesFor('down.example.test', 'A')).toHaveLength(3);
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('reports REFUSED as the server said', async () => {
    dns.setBehaviour((query) => (query.name === 'refused.example.test' ? { rcode: 'REFUSED' } : undefined));
    try {
      expect(await client.query('refused.example.test', 'A', FAST)).toMatchObject({ ok: false, failure: 'REFUSED' });
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('times out each try after `timeout`, waits `retryDelay` between tries, and tries 1 + maxRetries times', async () => {
    dns.setBehaviour((query) => (query.name === 'silent.example.test' ? { drop: true } : undefined));
    try {
      const started = performance.now();
      const result = await client.query('silent.example.test', 'A', {
        timeoutMs: 150,
        maxRetries: 2,
        retryDelayMs: 100,
      });
      const elapsed = performance.now() - started;
      expect(result).toMatchObject({ ok: false, failure: 'TIMEOUT' });
      const seen = dns.queriesFor('silent.example.test', 'A');
      expect(seen).toHaveLength(3);
      // Loosely: each gap is one timeout plus one delay (250 ms); the whole call 3 × 150 + 2 × 100.
      for (let i = 1; i < seen.length; i++) {
        const gap = (seen[i] as { at: number }).at - (seen[i - 1] as { at: number }).at;
        expect(gap).toBeGreaterThanOrEqual(235);
        expect(gap).toBeLessThan(600);
      }
      expect(elapsed).toBeGreaterThanOrEqual(630);
      expect(elapsed).toBeLessThan(1500);
      expect(result.elapsedMs).toBeGreaterThanOrEqual(630);
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('sends exactly one query when maxRetries is 0', async () => {
    dns.setBehaviour((query) => (query.name === 'once.example.test' ? { drop: true } : undefined));
    try {
      expect(
        await client.query('once.example.test', 'A', { timeoutMs: 100, maxRetries: 0, retryDelayMs: 1000 }),
      ).toMatchObject({
        ok: false,
        failure: 'TIMEOUT',
      });
      expect(dns.queriesFor('once.example.test')).toHaveLength(1);
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('succeeds on a retry when the first tries go unanswered', async () => {
    const flaky = await startDnsServer({
      zone: ZONE,
      behaviour: (query) => (query.attempt <= 2 ? { drop: true } : undefined),
    });
    try {
      const result = await createDnsClient([{ host: '127.0.0.1', port: flaky.port }]).query('example.test', 'NS', {
        timeoutMs: 100,
        maxRetries: 3,
        retryDelayMs: 10,
      });
      expect(result).toMatchObject({ ok: true, records: [{ type: 'NS', value: 'ns1.example.test' }] });
      expect(flaky.queriesFor('example.test', 'NS')).toHaveLength(3);
    } finally {
      await flaky.close();
    }
  });

  it('waits for a slow answer within the timeout, and gives up on one slower than it', async () => {
    dns.setBehaviour((query) => (query.name === 'example.test' && query.type === 'CAA' ? { delayMs: 200 } : undefined));
    try {
      expect(
        await client.query('example.test', 'CAA', { timeoutMs: 1000, maxRetries: 0, retryDelayMs: 0 }),
      ).toMatchObject({ ok: true });
      expect(
        await client.query('example.test', 'CAA', { timeoutMs: 100, maxRetries: 0, retryDelayMs: 0 }),
      ).toMatchObject({ ok: false, failure: 'TIMEOUT' });
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    dns.setBehaviour((query) => (query.name === 'big.example.test' ? { truncate: true } : undefined));
    try {
      const result = await client.query('big.example.test', 'TXT', FAST);
      expect(result).toMatchObject({ ok: true, records: [{ type: 'TXT', ttl: 45 }] });
      if (result.ok && result.records[0]?.type === 'TXT') expect(result.records[0].entries.join('')).toBe(longText);
      expect(dns.queriesFor('big.example.test', 'TXT', 'udp')).toHaveLength(1);
      expect(dns.queriesFor('big.example.test', 'TXT', 'tcp')).toHaveLength(1);
    } finally {
      dns.setBehaviour(undefined);
    }
  });

  it('follows a chain the server answers one hop at a time', async () => {
    const hopByHop = await startDnsServer({ zone: ZONE, chaseCnames: false });
    try {
      const result = await createDnsClient([{ host: '127.0.0.1', port: hopByHop.port }]).query(
        'www.example.test',
        'A',
        FAST,
      );
      expect(result).toMatchObject({ ok: true, records: [{ type: 'A', address: '192.0.2.20', ttl: 20 }] });
      expect(hopByHop.queries.map((query) => query.name)).toEqual([
        'www.example.test',
        'edge.example.test',
        'origin.example.test',
      ]);
    } finally {
      await hopByHop.close();
    }
  });

  it('reports UNREACHABLE at once when nothing listens on the server port', async () => {
    const dead = createDnsClient([{ host: '127.0.0.1', port: await closedUdpPort() }]);
    const started = performance.now();
    expect(await dead.query('example.test', 'A', { timeoutMs: 1000, maxRetries: 0, retryDelayMs: 0 })).toMatchObject({
      ok: false,
      failure: 'UNREACHABLE',
    });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('moves to the next server on a retry', async () => {
    const rotating = createDnsClient([
      { host: '127.0.0.1', port: await closedUdpPort() },
      { host: '127.0.0.1', port: dns.port },
    ]);
    expect(
      await rotating.query('example.test', 'AAAA', { timeoutMs: 1000, maxRetries: 1, retryDelayMs: 0 }),
    ).toMatchObject({
      ok: true,
      records: [{ address: '2001:db8::10' }],
    });
  });
});
