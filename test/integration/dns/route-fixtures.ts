import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer, ZoneRecord } from '../../helpers/dns-server.js';

export const PLAIN = 'text/plain; charset=utf-8';
export const ALL_TYPES = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV'] as const;
/** Small limits for failure paths, and no TLS (port 443 of loopback) unless a test asks. */
export const FAST = { timeout: 1000, maxRetries: 0, retryDelay: 0, enableSslInspection: false } as const;

export const ZONE: ZoneRecord[] = [
  rr('example.test', 'A', '192.0.2.10', 300),
  rr('example.test', 'AAAA', '2001:db8::10', 600),
  rr('example.test', 'MX', { preference: 10, exchange: 'aspmx.l.google.com' }, 3600),
  rr('example.test', 'TXT', ['v=spf1 -all'], 120),
  rr('example.test', 'NS', 'ns1.example.test', 86400),
  rr(
    'example.test',
    'SOA',
    {
      mname: 'ns1.example.test',
      rname: 'hostmaster.example.test',
      serial: 7,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 300,
    },
    900,
  ),
  rr('example.test', 'CAA', { flags: 0, tag: 'issue', value: 'letsencrypt.org' }, 3600),
  rr('_dmarc.example.test', 'TXT', ['v=DMARC1; p=reject'], 300),
  rr('_sip._tcp.example.test', 'SRV', { priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }, 1800),
  rr('www.example.test', 'CNAME', 'edge.example.test', 60),
  rr('edge.example.test', 'CNAME', 'origin.example.test', 30),
  rr('origin.example.test', 'A', '192.0.2.20', 20),
  rr('10.2.0.192.in-addr.arpa', 'PTR', 'host.example.test', 7200),
  rr('xn--bcher-kva.test', 'A', '192.0.2.30'),
  rr('resolver.test', 'A', '127.0.0.1'),
  rr('loopback.test', 'A', '127.0.0.1'),
  ...['d1.test', 'd2.test', 'd3.test', 'slow.test', 'flaky.test'].map((name) => rr(name, 'A', '192.0.2.40')),
];

/**
 * The documentation ranges ZONE answers with. /dns-lookup shows only public addresses unless
 * OUTBOUND_ALLOW_CIDRS allows them, so the tests that read these answers allow them; a test that
 * inspects TLS of such a domain must not (the probe would leave the machine).
 */
export const TEST_NETS = ['192.0.2.0/24', '2001:db8::/32'] as const;

export interface DnsAppOptions {
  /** Add 127.0.0.0/8 to OUTBOUND_ALLOW_CIDRS. */
  readonly allowLoopback?: boolean;
  /** Add TEST_NETS to OUTBOUND_ALLOW_CIDRS; default true. */
  readonly allowTestNets?: boolean;
}

/** A test app whose DNS_SERVERS is a loopback DNS server serving ZONE (started first, closed last). */
export function useDnsApp(
  kind: Parameters<typeof useTestApp>[0],
  options: DnsAppOptions = {},
): { app: () => TestApp; dns: () => TestDnsServer } {
  const env: Record<string, string> = {};
  let dns: TestDnsServer | undefined;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: ZONE });
    env.DNS_SERVERS = dns.address;
    const allowed = [
      ...(options.allowTestNets === false ? [] : TEST_NETS),
      ...(options.allowLoopback ? ['127.0.0.0/8'] : []),
    ];
    if (allowed.length > 0) env.OUTBOUND_ALLOW_CIDRS = allowed.join(',');
  });
  afterAll(async () => {
    await dns?.close();
  });
  const app = useTestApp(kind, { env });
  return {
    app,
    dns: () => {
      if (dns === undefined) throw new Error('DNS server not started');
      return dns;
    },
  };
}

export function lookup(t: TestApp, token: string, body: unknown, contentType = 'application/json') {
  return t.inject({
    method: 'POST',
    url: '/dns-lookup',
    headers: { 'x-token': token, 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export { balanceOf } from '../../helpers/app.js';
