import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { rr } from '../../helpers/dns-server.js';
import type { BehaviourRule } from '../../helpers/dns-server.js';
import { lookup, useDnsApp } from './route-fixtures.js';

const QUIET = {
  timeout: 1000,
  maxRetries: 0,
  retryDelay: 0,
  enableEnrichment: false,
  enableSslInspection: false,
} as const;

/** What the service's own resolver might know of a cloud's internal zones. */
const INTERNAL: BehaviourRule = (query) => {
  if (query.name === 'mixed.test' && query.type === 'A')
    return { answers: [rr('mixed.test', 'A', '10.0.0.5'), rr('mixed.test', 'A', '93.184.216.34')] };
  if (query.name === 'mixed.test' && query.type === 'AAAA')
    return { answers: [rr('mixed.test', 'AAAA', 'fd00::5'), rr('mixed.test', 'AAAA', '2606:4700::1')] };
  if (query.name === 'mixed.test' && query.type === 'MX')
    return { answers: [rr('mixed.test', 'MX', { preference: 10, exchange: 'mail.internal' })] };
  // A public name that leads into the reverse zone of a private address (RFC 2317 style).
  if (query.name === 'sneaky.test' && query.type === 'PTR')
    return {
      answers: [rr('sneaky.test', 'CNAME', '5.0.0.10.in-addr.arpa'), rr('5.0.0.10.in-addr.arpa', 'PTR', 'db.internal')],
    };
  if (query.name.endsWith('.in-addr.arpa') || query.name.endsWith('.ip6.arpa'))
    return { answers: [rr(query.name, 'PTR', 'host.internal')] };
  return undefined;
};

describeEachStore('POST /dns-lookup: non-public answers without OUTBOUND_ALLOW_CIDRS', (kind) => {
  const { app, dns } = useDnsApp(kind, { allowTestNets: false });

  it('removes private and loopback addresses from A and AAAA answers, says so, and looks up PTR names of the public ones only', async () => {
    dns().setBehaviour(INTERNAL);
    try {
      const token = await app().createToken(100);
      const res = await lookup(app(), token, {
        domains: ['mixed.test', 'loopback.test'],
        recordTypes: ['A', 'AAAA', 'MX'],
        ...QUIET,
      });
      expect(res.statusCode).toBe(200);
      const [mixed, loopback] = res.json().results;
      expect(mixed.lookupResult.records).toEqual({
        A: [{ type: 'A', address: '93.184.216.34', ttl: 300 }],
        AAAA: [{ type: 'AAAA', address: '2606:4700::1', ttl: 300 }],
        MX: [{ type: 'MX', exchange: 'mail.internal', priority: 10, ttl: 300 }],
      });
      expect(mixed.lookupResult.warnings).toEqual([
        '2 non-public addresses removed from the answers (NON_PUBLIC_ADDRESS)',
      ]);
      expect(mixed.lookupResult.reverseLookup.hostnames).toEqual(['host.internal']);
      expect(dns().queriesFor('34.216.184.93.in-addr.arpa', 'PTR')).toHaveLength(1);
      expect(dns().queriesFor('5.0.0.10.in-addr.arpa')).toHaveLength(0);
      expect(loopback.lookupResult.records).toEqual({});
      expect(loopback.lookupResult.warnings).toEqual([
        '1 non-public address removed from the answers (NON_PUBLIC_ADDRESS)',
      ]);
      expect(res.body).not.toMatch(/10\.0\.0\.5|fd00::5|127\.0\.0\.1/);
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('does not look up the PTR of a non-public address, given as an IP or as its reverse name, and counts it failed', async () => {
    dns().setBehaviour(INTERNAL);
    try {
      const token = await app().createToken(100);
      const before = dns().queries.length;
      const res = await lookup(app(), token, {
        domains: ['10.0.0.6', '5.0.0.10.in-addr.arpa', '16.172.in-addr.arpa', 'fd00::1', '127.0.0.1'],
        recordTypes: ['PTR', 'TXT'],
        ...QUIET,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(dns().queries.length).toBe(before);
      expect(body.summary).toMatchObject({ totalDomains: 5, successfulLookups: 0, failedLookups: 5 });
      const [ip, reverseName, zone, v6, loop] = body.results;
      for (const entry of [ip, v6, loop])
        expect(entry.lookupResult).toMatchObject({ records: {}, errors: { PTR: 'NON_PUBLIC_ADDRESS' } });
      for (const entry of [reverseName, zone])
        expect(entry.lookupResult).toMatchObject({
          records: {},
          errors: { PTR: 'NON_PUBLIC_ADDRESS', TXT: 'NON_PUBLIC_ADDRESS' },
        });
      expect(ip.lookupResult.warnings).toEqual([
        'Names under the reverse zone of a non-public address are not looked up (NON_PUBLIC_ADDRESS)',
      ]);
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('does not show a PTR answer that a CNAME led into the reverse zone of a private address', async () => {
    dns().setBehaviour(INTERNAL);
    try {
      const token = await app().createToken(100);
      const res = await lookup(app(), token, { domains: ['sneaky.test'], recordTypes: ['PTR'], ...QUIET });
      expect(res.json().results[0].lookupResult).toMatchObject({ records: {}, errors: { PTR: 'NON_PUBLIC_ADDRESS' } });
      expect(res.body).not.toContain('db.internal');
    } finally {
      dns().setBehaviour(undefined);
    }
  });

  it('still looks up the PTR of a public address', async () => {
    dns().setBehaviour(INTERNAL);
    try {
      const token = await app().createToken(100);
      const res = await lookup(app(), token, { domains: ['93.184.216.34'], ...QUIET });
      expect(res.json().results[0].lookupResult.records).toEqual({
        PTR: [{ type: 'PTR', value: 'host.internal', ttl: 300 }],
      });
    } finally {
      dns().setBehaviour(undefined);
    }
  });
});

describeEachStore('POST /dns-lookup: non-public answers inside OUTBOUND_ALLOW_CIDRS', (kind) => {
  // 127.0.0.0/8 allowed (the DNS server is there too); 10/8 and fd00::/8 are not.
  const { app, dns } = useDnsApp(kind, { allowTestNets: false, allowLoopback: true });

  it('shows allowed addresses and their PTR names, and filters the answers of propagation servers too', async () => {
    dns().setBehaviour(INTERNAL);
    try {
      const token = await app().createToken(100);
      const res = await lookup(app(), token, {
        domains: ['loopback.test', 'mixed.test', '127.0.0.1'],
        recordTypes: ['A'],
        checkPropagation: true,
        propagationServers: [dns().address],
        ...QUIET,
      });
      expect(res.statusCode).toBe(200);
      const [loopback, mixed, ip] = res.json().results;
      expect(loopback.lookupResult.records).toEqual({ A: [{ type: 'A', address: '127.0.0.1', ttl: 300 }] });
      expect(loopback.lookupResult).not.toHaveProperty('warnings');
      expect(ip.lookupResult.records).toEqual({ PTR: [{ type: 'PTR', value: 'host.internal', ttl: 300 }] });
      expect(mixed.lookupResult.records).toEqual({ A: [{ type: 'A', address: '93.184.216.34', ttl: 300 }] });
      // The server gave the main answer (so it matches), shown without its private address; both removals are counted.
      expect(mixed.propagationResults[0].servers[dns().address]).toMatchObject({
        records: [{ type: 'A', address: '93.184.216.34', ttl: 300 }],
        matches: true,
      });
      expect(mixed.lookupResult.warnings).toEqual([
        '2 non-public addresses removed from the answers (NON_PUBLIC_ADDRESS)',
      ]);
    } finally {
      dns().setBehaviour(undefined);
    }
  });
});
