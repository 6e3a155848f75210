import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ALL_TYPES, balanceOf, FAST, lookup, useDnsApp } from './route-fixtures.js';

describeEachStore('POST /dns-lookup: lookups on the wire', (kind) => {
  const { app, dns } = useDnsApp(kind);

  it('returns every record type with its TTL, follows CNAMEs, turns IPs into PTR lookups, and charges 5', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, {
      domains: ['example.test', '_sip._tcp.example.test', 'www.example.test', '192.0.2.10'],
      recordTypes: ALL_TYPES,
      enableEnrichment: false,
      performReverseLookup: false,
      ...FAST,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
    expect(await balanceOf(app(), token)).toBe(95);
    const body = res.json();
    expect(body.summary).toEqual({
      totalDomains: 4,
      successfulLookups: 4,
      failedLookups: 0,
      recordTypes: [...ALL_TYPES],
      propagationCheckEnabled: false,
    });
    const [apex, srv, www, ip] = body.results;
    expect(apex.domain).toBe('example.test');
    expect(apex.lookupResult.domain).toBe('example.test');
    expect(Date.parse(apex.lookupResult.timestamp)).not.toBeNaN();
    expect(apex.lookupResult.records).toEqual({
      A: [{ type: 'A', address: '192.0.2.10', ttl: 300 }],
      AAAA: [{ type: 'AAAA', address: '2001:db8::10', ttl: 600 }],
      MX: [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 10, ttl: 3600 }],
      TXT: [{ type: 'TXT', entries: ['v=spf1 -all'], ttl: 120 }],
      NS: [{ type: 'NS', value: 'ns1.example.test', ttl: 86400 }],
      SOA: [
        {
          type: 'SOA',
          nsname: 'ns1.example.test',
          hostmaster: 'hostmaster.example.test',
          serial: 7,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          minttl: 300,
          ttl: 900,
        },
      ],
      CAA: [{ type: 'CAA', flags: 0, tag: 'issue', value: 'letsencrypt.org', ttl: 3600 }],
    });
    expect(apex.lookupResult).not.toHaveProperty('errors');
    expect(srv.lookupResult.records).toEqual({
      SRV: [{ type: 'SRV', priority: 10, weight: 60, port: 5060, target: 'sip.example.test', ttl: 1800 }],
    });
    expect(www.lookupResult.records).toEqual({
      A: [{ type: 'A', address: '192.0.2.20', ttl: 20 }],
      CNAME: [{ type: 'CNAME', value: 'edge.example.test', ttl: 60 }],
    });
    expect(ip).toMatchObject({
      domain: '192.0.2.10',
      lookupResult: {
        domain: '192.0.2.10',
        records: { PTR: [{ type: 'PTR', value: 'host.example.test', ttl: 7200 }] },
      },
    });
    expect(body.results[0]).not.toHaveProperty('propagationResults');
  });

  it('applies the defaults: six record types, reverse lookup and enrichment on', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, { domains: ['example.test'], ...FAST });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.summary.recordTypes).toEqual(['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME']);
    expect(body.results[0].lookupResult).toMatchObject({
      reverseLookup: { hostnames: ['host.example.test'], responseTime: expect.any(Number) },
      mx_provider: 'Google Workspace',
      spf_valid: true,
      spf_strict: true,
      dmarc_policy: 'reject',
      has_dkim: false,
      email_security_score: 80,
      warnings: ['No DKIM records detected'],
      recommendations: ['Configure DKIM signing for email authentication'],
    });
    expect(body.results[0].lookupResult).not.toHaveProperty('metadata');
    expect(body.results[0].lookupResult).not.toHaveProperty('ssl_certificate_expires_at');
  });

  it('queries international names in punycode and collapses duplicate entries', async () => {
    const token = await app().createToken(100);
    const before = dns().queriesFor('xn--bcher-kva.test', 'A').length;
    const res = await lookup(app(), token, {
      domains: ['bücher.test', 'xn--bcher-kva.test', 'BÜCHER.test.'],
      recordTypes: ['A', 'A'],
      enableEnrichment: false,
      ...FAST,
    });
    const body = res.json();
    expect(body.summary).toMatchObject({ totalDomains: 1, successfulLookups: 1, recordTypes: ['A'] });
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({
      domain: 'bücher.test',
      lookupResult: { domain: 'xn--bcher-kva.test', records: { A: [{ address: '192.0.2.30' }] } },
    });
    expect(dns().queriesFor('xn--bcher-kva.test', 'A').length - before).toBe(1);
  });

  it('keeps an entry with empty records and the errors for a domain whose every query failed, and counts it failed', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, {
      domains: ['example.test', 'missing.test'],
      recordTypes: ['A', 'MX'],
      ...FAST,
    });
    expect(res.statusCode).toBe(200);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
    const body = res.json();
    expect(body.summary).toMatchObject({ totalDomains: 2, successfulLookups: 1, failedLookups: 1 });
    expect(body.results[1]).toEqual({
      domain: 'missing.test',
      lookupResult: {
        domain: 'missing.test',
        timestamp: expect.any(String),
        records: {},
        errors: { A: 'NXDOMAIN', MX: 'NXDOMAIN' },
      },
    });
  });

  it('reports a failed record type in errors and still counts the domain as successful', async () => {
    const token = await app().createToken(100);
    dns().setBehaviour((query) =>
      query.name === 'example.test' && query.type === 'MX' ? { rcode: 'SERVFAIL' } : undefined,
    );
    try {
      const res = await lookup(app(), token, {
        domains: ['example.test'],
        recordTypes: ['A', 'MX'],
        enableEnrichment: false,
        performReverseLookup: false,
        ...FAST,
      });
      const body = res.json();
      expect(body.summary).toMatchObject({ successfulLookups: 1, failedLookups: 0 });
      expect(body.results[0].lookupResult).toMatchObject({
        records: { A: [{ address: '192.0.2.10' }] },
        errors: { MX: 'SERVFAIL' },
      });
      expect(body.results[0].lookupResult.records).not.toHaveProperty('MX');
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('honours maxRetries and retryDelay on the wire', async () => {
    const token = await app().createToken(100);
    dns().setBehaviour((query) => (query.name === 'flaky.test' ? { rcode: 'SERVFAIL' } : undefined));
    try {
      const before = dns().queriesFor('flaky.test', 'A').length;
      const started = performance.now();
      const res = await lookup(app(), token, {
        domains: ['flaky.test'],
        recordTypes: ['A'],
        enableEnrichment: false,
        ...FAST,
        maxRetries: 3,
        retryDelay: 50,
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
      expect(res.json().results[0].lookupResult.errors).toEqual({ A: 'SERVFAIL' });
      expect(dns().queriesFor('flaky.test', 'A').length - before).toBe(4);
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('gives up on a silent resolver after the timeout and reports TIMEOUT', async () => {
    const token = await app().createToken(100);
    dns().setBehaviour((query) => (query.name === 'slow.test' ? { drop: true } : undefined));
    try {
      const started = performance.now();
      const res = await lookup(app(), token, { domains: ['slow.test'], recordTypes: ['A'], ...FAST });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(990);
      expect(elapsed).toBeLessThan(2500);
      expect(res.statusCode).toBe(200);
      expect(res.json().results[0].lookupResult.errors).toEqual({ A: 'TIMEOUT' });
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('looks up the domains of one request concurrently', async () => {
    const token = await app().createToken(100);
    dns().setBehaviour((query) => (/^d\d\.test$/.test(query.name) ? { delayMs: 400 } : undefined));
    try {
      const started = performance.now();
      const res = await lookup(app(), token, {
        domains: ['d1.test', 'd2.test', 'd3.test'],
        recordTypes: ['A'],
        enableEnrichment: false,
        performReverseLookup: false,
        ...FAST,
      });
      expect(res.json().summary.successfulLookups).toBe(3);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('adds metadata when asked', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, {
      domains: ['example.test'],
      recordTypes: ['A', 'AAAA', 'MX'],
      includeMetadata: true,
      enableEnrichment: false,
      ...FAST,
    });
    expect(res.json().results[0].lookupResult.metadata).toEqual({ queryTime: expect.any(Number), totalRecords: 3 });
  });

  it('logs the call under the service category with its cost', async () => {
    const token = await app().createToken(100);
    await lookup(app(), token, { domains: ['example.test'], recordTypes: ['A'], enableEnrichment: false, ...FAST });
    const logs = (await app().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } })).json()
      .logs;
    expect(logs[0]).toMatchObject({
      method: 'POST',
      path: '/dns-lookup',
      endpoint: 'service',
      status_code: 200,
      cost: 5,
      balance: 95,
    });
  });
});

describeEachStore('POST /dns-lookup: propagation with loopback resolvers allowed', (kind) => {
  const { app, dns } = useDnsApp(kind, { allowLoopback: true });

  it('compares the answers of the chosen servers with the main answer', async () => {
    const token = await app().createToken(100);
    const servers = [dns().address, `resolver.test:${dns().port}`];
    const res = await lookup(app(), token, {
      domains: ['example.test'],
      recordTypes: ['A', 'MX'],
      checkPropagation: true,
      propagationServers: servers,
      enableEnrichment: false,
      ...FAST,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.summary.propagationCheckEnabled).toBe(true);
    expect(body.results[0].propagationResults).toHaveLength(2);
    const [a] = body.results[0].propagationResults;
    expect(a).toMatchObject({
      domain: 'example.test',
      recordType: 'A',
      isPropagated: true,
      consistencyPercentage: 100,
    });
    expect(Object.keys(a.servers)).toEqual(servers);
    expect(a.servers[dns().address]).toEqual({
      records: [{ type: 'A', address: '192.0.2.10', ttl: 300 }],
      responseTime: expect.any(Number),
      location: 'custom',
      matches: true,
    });
  });

  it('connects to a loopback address for TLS inspection only because it is allowed (nothing listens on 443)', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, {
      domains: ['loopback.test'],
      recordTypes: ['A'],
      enableEnrichment: false,
      ...FAST,
      enableSslInspection: true,
    });
    expect(res.json().results[0].lookupResult).toMatchObject({
      ssl_error: 'ECONNREFUSED',
      warnings: ['SSL inspection failed: ECONNREFUSED'],
    });
  });
});
