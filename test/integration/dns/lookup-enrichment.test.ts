import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../../src/features/dns/dns-lookup.js';
import type { DnsLookup } from '../../../src/features/dns/dns-lookup.js';
import { createDnsClient } from '../../../src/outbound/dns/wire-client.js';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';
import { systemClock } from '../../../src/lib/time.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { createSecureContext } from 'node:tls';
import { createCertificateAuthority } from '../../helpers/certificates.js';
import { startTlsServer } from '../../helpers/tls-server.js';
import type { TestTlsServer } from '../../helpers/tls-server.js';
import type { DnsLookupBody } from '../../../src/features/dns/dns.schemas.js';
import { validatedBody } from '../../helpers/validated-dns-body.js';

/** TXT data as DNS carries it: strings of at most 255 bytes. */
const chunks = (text: string) =>
  Array.from({ length: Math.ceil(text.length / 255) }, (_, i) => text.slice(i * 255, (i + 1) * 255));
const KEY = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(8)}`;
const txt = (name: string, text: string) => rr(name, 'TXT', chunks(text));

const ZONE = [
  // Everything in place: Google MX, SPF tree within the limit, DMARC reject, DKIM on the provider's selector.
  rr('mail.test', 'A', '127.0.0.1'),
  rr('mail.test', 'MX', { preference: 10, exchange: 'aspmx.l.google.com' }),
  rr('mail.test', 'MX', { preference: 20, exchange: 'alt1.aspmx.l.google.com' }),
  txt('mail.test', 'v=spf1 include:_spf.mail.test -all'),
  txt('mail.test', 'google-site-verification=abc'),
  txt('_spf.mail.test', 'v=spf1 ip4:192.0.2.0/24 include:_spf2.mail.test ~all'),
  txt('_spf2.mail.test', 'v=spf1 a mx -all'),
  txt('_dmarc.mail.test', 'v=DMARC1; p=reject; rua=mailto:dmarc@mail.test'),
  txt('google._domainkey.mail.test', KEY),
  // Over the lookup limit through nested includes; DMARC quarantine; DKIM behind a CNAME to the provider.
  rr('toomany.test', 'MX', { preference: 0, exchange: 'toomany-test.mail.protection.outlook.com' }),
  txt('toomany.test', 'v=spf1 include:l1.toomany.test include:l2.toomany.test -all'),
  txt('l1.toomany.test', 'v=spf1 a mx ptr exists:x.toomany.test include:l3.toomany.test ~all'),
  txt('l2.toomany.test', 'v=spf1 a mx ptr ~all'),
  txt('l3.toomany.test', 'v=spf1 a -all'),
  txt('_dmarc.toomany.test', 'v=DMARC1; p=quarantine; pct=100'),
  rr('selector1._domainkey.toomany.test', 'CNAME', 'selector1-toomany-test._domainkey.tenant.onmicrosoft.test'),
  txt('selector1-toomany-test._domainkey.tenant.onmicrosoft.test', KEY),
  // An include loop; DMARC none; a revoked DKIM key only.
  rr('loop.test', 'MX', { preference: 10, exchange: 'mx.zoho.eu' }),
  txt('loop.test', 'v=spf1 include:loop2.test ~all'),
  txt('loop2.test', 'v=spf1 include:loop.test -all'),
  txt('_dmarc.loop.test', 'v=DMARC1; p=none'),
  txt('default._domainkey.loop.test', 'v=DKIM1; k=rsa; p='),
  // Proton: DKIM only on a provider-specific selector; a broken DMARC record.
  rr('proton.test', 'MX', { preference: 10, exchange: 'mail.protonmail.ch' }),
  txt('proton.test', 'v=spf1 include:_spf.protonmail.ch -all'),
  txt('_spf.protonmail.ch', 'v=spf1 ip4:185.70.40.0/24 -all'),
  txt('_dmarc.proton.test', 'v=DMARC1; p=maybe'),
  txt('protonmail2._domainkey.proton.test', KEY),
  // Nothing for mail at all.
  rr('bare.test', 'A', '192.0.2.80'),
  // DMARC found at the organizational domain (RFC 7489 6.6.3): its sp= governs subdomains without their own record.
  rr('news.mail.test', 'A', '192.0.2.81'),
  txt('_dmarc.sp.test', 'v=DMARC1; p=reject; sp=none'),
  rr('news.sp.test', 'A', '192.0.2.82'),
  txt('_dmarc.own.sp.test', 'v=DMARC1; p=quarantine'),
  rr('own.sp.test', 'A', '192.0.2.83'),
  // A name under a private public suffix belongs to someone else than the suffix's owner.
  txt('_dmarc.github.io', 'v=DMARC1; p=reject'),
  rr('someone.github.io', 'A', '192.0.2.84'),
  // A web site for TLS inspection.
  rr('secure.test', 'A', '127.0.0.1'),
  txt('secure.test', 'v=spf1 -all'),
  txt('_dmarc.secure.test', 'v=DMARC1; p=reject'),
];

const FAST = {
  timeout: 1000,
  maxRetries: 0,
  retryDelay: 0,
  enableSslInspection: false,
  performReverseLookup: false,
} as const;

describe('enrichment and TLS inspection of a lookup, against loopback DNS and TLS servers', () => {
  let dns: TestDnsServer;
  let tls: TestTlsServer;
  let caPem: string;
  let lookup: DnsLookup;

  beforeAll(async () => {
    dns = await startDnsServer({ zone: ZONE });
    const ca = createCertificateAuthority();
    caPem = ca.caPem;
    tls = await startTlsServer(ca.issue({ names: ['secure.test'], days: 20 }));
    lookup = createDnsLookup({
      client: createDnsClient([{ host: '127.0.0.1', port: dns.port }]),
      // Loopback for the TLS server, the documentation ranges for the answers (TLS is inspected only on loopback names).
      policy: createAddressPolicy(['127.0.0.0/8', '192.0.2.0/24', '2001:db8::/32']),
      clock: systemClock,
      tlsPort: tls.port,
      tlsContext: createSecureContext({ ca: [caPem] }),
    });
  });
  afterAll(async () => {
    await dns?.close();
    await tls?.close();
  });

  const one = async (domain: string, extra: Partial<DnsLookupBody> = {}) => {
    const response = await lookup.lookup(validatedBody({ domains: [domain], ...FAST, ...extra }), 1);
    return response.results[0]?.lookupResult as Record<string, unknown> & {
      enrichment?: Record<string, Record<string, unknown>>;
    };
  };

  it('scores 100 a domain with valid strict SPF (through includes), DMARC reject and DKIM, and names its provider', async () => {
    const result = await one('mail.test');
    expect(result).toMatchObject({
      mx_provider: 'Google Workspace',
      spf_valid: true,
      spf_strict: true,
      dmarc_policy: 'reject',
      has_dkim: true,
      email_security_score: 100,
      warnings: [],
      recommendations: [],
    });
    expect(result.enrichment?.spf).toMatchObject({
      present: true,
      valid: true,
      strict: true,
      lookups: 4,
      record: 'v=spf1 include:_spf.mail.test -all',
    });
    expect(result.enrichment?.dkim).toMatchObject({ found: true, selectors: ['google'] });
    expect(result.enrichment?.mx).toEqual({
      provider: 'Google Workspace',
      hosts: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
    });
  });

  it('finds SPF past the 10-lookup limit invalid, reads DMARC quarantine, and follows a DKIM CNAME', async () => {
    const result = await one('toomany.test');
    expect(result).toMatchObject({
      mx_provider: 'Microsoft 365',
      spf_valid: false,
      spf_strict: true,
      dmarc_policy: 'quarantine',
      has_dkim: true,
      email_security_score: 80,
    });
    expect(result.warnings).toEqual([
      'SPF record is invalid: more than 10 DNS lookups',
      'DMARC policy is quarantine, not reject',
    ]);
    expect(result.recommendations).toHaveLength(2);
    expect(result.enrichment?.dkim).toMatchObject({ selectors: ['selector1'] });
  });

  it('finds an include loop invalid, DMARC none, and a revoked DKIM key absent', async () => {
    const result = await one('loop.test');
    expect(result).toMatchObject({
      mx_provider: 'Zoho Mail',
      spf_valid: false,
      spf_strict: false,
      dmarc_policy: 'none',
      has_dkim: false,
      email_security_score: 40,
    });
    expect(result.enrichment?.spf?.error).toBe('loop: include:loop.test is already being evaluated');
    expect(result.warnings).toEqual([
      'SPF record is invalid: loop: include:loop.test is already being evaluated',
      'SPF record does not end in -all',
      'DMARC policy is none: spoofed mail is still delivered',
      'No DKIM records detected',
    ]);
  });

  it('probes provider-specific DKIM selectors and treats a broken DMARC record as missing', async () => {
    const result = await one('proton.test');
    expect(result).toMatchObject({
      mx_provider: 'Proton Mail',
      spf_valid: true,
      spf_strict: true,
      has_dkim: true,
      email_security_score: 60,
    });
    expect(result).not.toHaveProperty('dmarc_policy');
    expect(result.enrichment?.dkim).toMatchObject({ selectors: ['protonmail2'] });
    expect(result.warnings).toEqual(['DMARC record is invalid: DMARC record has an unknown policy p=maybe']);
  });

  it("applies the organizational domain's DMARC policy to a subdomain without its own record", async () => {
    const inherited = await one('news.mail.test');
    expect(inherited).toMatchObject({ dmarc_policy: 'reject' });
    expect(inherited.enrichment?.dmarc).toMatchObject({ present: true, organizationalDomain: 'mail.test' });
    expect(inherited.warnings).not.toContain('No DMARC record found');
    // sp= is the policy for subdomains; a subdomain's own record wins over both.
    expect(await one('news.sp.test')).toMatchObject({ dmarc_policy: 'none' });
    const own = await one('own.sp.test');
    expect(own).toMatchObject({ dmarc_policy: 'quarantine' });
    expect(own.enrichment?.dmarc).not.toHaveProperty('organizationalDomain');
  });

  it('does not lend a hosting suffix’s DMARC policy to the names under it (private Public Suffix List entries)', async () => {
    const result = await one('someone.github.io');
    expect(result).not.toHaveProperty('dmarc_policy');
    expect(result.warnings).toContain('No DMARC record found');
  });

  it('gives 0 and a warning per missing record to a domain with no mail set-up', async () => {
    const result = await one('bare.test');
    expect(result).toMatchObject({
      mx_provider: null,
      spf_valid: false,
      spf_strict: false,
      has_dkim: false,
      email_security_score: 0,
    });
    expect(result).not.toHaveProperty('dmarc_policy');
    expect(result.warnings).toEqual(['No SPF record found', 'No DMARC record found', 'No DKIM records detected']);
    expect(result.recommendations).toHaveLength(3);
  });

  it('leaves the enrichment out when it is disabled', async () => {
    const result = await one('mail.test', { enableEnrichment: false });
    for (const field of [
      'mx_provider',
      'spf_valid',
      'spf_strict',
      'dmarc_policy',
      'has_dkim',
      'email_security_score',
      'warnings',
      'recommendations',
      'enrichment',
    ]) {
      expect(result).not.toHaveProperty(field);
    }
  });

  it('inspects the TLS certificate on the injected port, merging its warnings with the e-mail ones', async () => {
    const result = await one('secure.test', { enableSslInspection: true, recordTypes: ['A', 'TXT'] });
    expect(result).toMatchObject({ ssl_chain_valid: true, ssl_subject_alt_names: ['secure.test'] });
    expect(result.ssl_days_until_expiry).toBeGreaterThanOrEqual(19);
    expect(result.ssl_days_until_expiry).toBeLessThanOrEqual(20);
    expect(result.warnings).toEqual([
      'No DKIM records detected',
      `SSL certificate expires in ${String(result.ssl_days_until_expiry)} days`,
    ]);
    expect(result.recommendations).toEqual([
      'Configure DKIM signing for email authentication',
      'Renew the SSL certificate before it expires',
    ]);
    expect(tls.servernames).toContain('secure.test');
  });

  it('does not inspect TLS when inspection is off or the target is an IP address', async () => {
    const before = tls.servernames.length;
    expect(await one('secure.test', { enableSslInspection: false })).not.toHaveProperty('ssl_certificate_expires_at');
    expect(await one('127.0.0.1', { enableSslInspection: true })).not.toHaveProperty('ssl_certificate_expires_at');
    expect(tls.servernames.length).toBe(before);
  });
});
