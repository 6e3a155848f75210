import { describe, expect, it } from 'vitest';
import { dmarcFromTexts, parseDmarc } from '../../../src/features/dns/dmarc.js';
import { dkimSelectors, isDkimKey } from '../../../src/features/dns/dkim.js';
import { assessEmailSecurity } from '../../../src/features/dns/email-score.js';
import type { EmailPosture } from '../../../src/features/dns/email-score.js';
import { mxProvider } from '../../../src/features/dns/mx-provider.js';

const mx = (...hosts: Array<[number, string]>) =>
  hosts.map(([priority, exchange]) => ({ type: 'MX' as const, priority, exchange, ttl: 300 }));

describe('mail provider from MX hosts', () => {
  it('recognises the common providers', () => {
    const cases: Array<[string, string]> = [
      ['aspmx.l.google.com', 'Google Workspace'],
      ['smtp.google.com', 'Google Workspace'],
      ['example-com.mail.protection.outlook.com', 'Microsoft 365'],
      ['mx.zoho.eu', 'Zoho Mail'],
      ['mail.protonmail.ch', 'Proton Mail'],
      ['in1-smtp.messagingengine.com', 'Fastmail'],
      ['mx01.mail.icloud.com', 'iCloud Mail'],
      ['inbound-smtp.eu-west-1.amazonaws.com', 'Amazon SES'],
      ['eu-smtp-inbound-1.mimecast.com', 'Mimecast'],
      ['mx0a-001.pphosted.com', 'Proofpoint'],
      ['route1.mx.cloudflare.net', 'Cloudflare Email Routing'],
    ];
    for (const [host, provider] of cases) expect(mxProvider(mx([10, host])), host).toBe(provider);
  });

  it('takes the most preferred recognised host, and null when none is recognised or there is no MX', () => {
    expect(mxProvider(mx([20, 'aspmx.l.google.com'], [10, 'mx.zoho.com']))).toBe('Zoho Mail');
    expect(mxProvider(mx([10, 'mail.example.com'], [20, 'alt1.aspmx.l.google.com']))).toBe('Google Workspace');
    expect(mxProvider(mx([10, 'mail.example.com']))).toBeNull();
    expect(mxProvider(mx([10, 'notgoogle.com']))).toBeNull();
    expect(mxProvider([])).toBeNull();
  });
});

describe('DMARC records', () => {
  it('reads the policy and the optional tags', () => {
    expect(parseDmarc('v=DMARC1; p=reject; sp=quarantine; pct=50; rua=mailto:d@example.com')).toEqual({
      ok: true,
      record: { policy: 'reject', subdomainPolicy: 'quarantine', pct: 50, rua: 'mailto:d@example.com' },
    });
    expect(parseDmarc('v=DMARC1;p=None')).toEqual({ ok: true, record: { policy: 'none' } });
  });

  it('refuses records without v=DMARC1 first or without a valid p', () => {
    expect(parseDmarc('p=reject; v=DMARC1')).toEqual({ ok: false, error: 'does not start with v=DMARC1' });
    expect(parseDmarc('v=DMARC1; rua=mailto:x@example.com')).toEqual({ ok: false, error: 'has no p= policy' });
    expect(parseDmarc('v=DMARC1; p=block')).toEqual({ ok: false, error: 'has an unknown policy p=block' });
  });

  it('is present only with exactly one valid record among the TXT strings', () => {
    expect(dmarcFromTexts(['unrelated', 'v=DMARC1; p=quarantine'])).toMatchObject({
      present: true,
      policy: 'quarantine',
    });
    expect(dmarcFromTexts([])).toEqual({ present: false });
    expect(dmarcFromTexts(['v=DMARC1; p=none', 'v=DMARC1; p=reject'])).toEqual({
      present: false,
      error: 'more than one DMARC record',
    });
    expect(dmarcFromTexts(['v=DMARC1; p=maybe'])).toMatchObject({
      present: false,
      error: 'DMARC record has an unknown policy p=maybe',
    });
  });
});

describe('DKIM probing rules', () => {
  it('adds provider selectors to the common ones', () => {
    expect(dkimSelectors('Proton Mail')).toEqual(
      expect.arrayContaining(['default', 'selector1', 'protonmail', 'protonmail2']),
    );
    expect(dkimSelectors('Fastmail')).toContain('fm1');
    expect(new Set(dkimSelectors('Microsoft 365')).size).toBe(dkimSelectors('Microsoft 365').length);
  });

  it('counts a key only when p= is not empty', () => {
    expect(isDkimKey('v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC')).toBe(true);
    expect(isDkimKey('k=rsa;p=MIIBIjAN')).toBe(true);
    expect(isDkimKey('v=DKIM1; k=rsa; p=')).toBe(false);
    expect(isDkimKey('v=spf1 -all')).toBe(false);
  });
});

describe('e-mail security score (the contract’s formula)', () => {
  const full: EmailPosture = {
    spf: { present: true, valid: true, strict: true },
    dmarc: { present: true, policy: 'reject' },
    dkim: { found: true },
  };

  it('gives 100 with no warnings when everything is in place', () => {
    expect(assessEmailSecurity(full, 'example.com')).toEqual({ score: 100, warnings: [], recommendations: [] });
  });

  it('gives 0 with one warning and one recommendation per missing record', () => {
    const none = assessEmailSecurity(
      { spf: { present: false, valid: false, strict: false }, dmarc: { present: false }, dkim: { found: false } },
      'example.com',
    );
    expect(none.score).toBe(0);
    expect(none.warnings).toEqual(['No SPF record found', 'No DMARC record found', 'No DKIM records detected']);
    expect(none.recommendations).toHaveLength(3);
    expect(none.recommendations[1]).toContain('_dmarc.example.com');
    expect(none.recommendations[2]).toBe('Configure DKIM signing for email authentication');
  });

  it('adds each part of the formula', () => {
    const score = (over: Partial<EmailPosture>) => assessEmailSecurity({ ...full, ...over }, 'e.com').score;
    expect(score({ spf: { present: true, valid: false, strict: true } })).toBe(90);
    expect(score({ spf: { present: true, valid: true, strict: false } })).toBe(90);
    expect(score({ spf: { present: true, valid: false, strict: false } })).toBe(80);
    expect(score({ dmarc: { present: true, policy: 'quarantine' } })).toBe(90);
    expect(score({ dmarc: { present: true, policy: 'none' } })).toBe(80);
    expect(score({ dmarc: { present: false } })).toBe(60);
    expect(score({ dkim: { found: false } })).toBe(80);
  });

  it('explains every missing part', () => {
    const result = assessEmailSecurity(
      {
        spf: { present: true, valid: false, strict: false, error: 'more than 10 DNS lookups' },
        dmarc: { present: true, policy: 'none' },
        dkim: { found: true },
      },
      'e.com',
    );
    expect(result.warnings).toEqual([
      'SPF record is invalid: more than 10 DNS lookups',
      'SPF record does not end in -all',
      'DMARC policy is none: spoofed mail is still delivered',
    ]);
    expect(result.recommendations).toHaveLength(3);
    expect(result.score).toBe(60);
  });
});
