import { describe, expect, it } from 'vitest';
import { allQualifier, parseSpf } from '../../../src/features/dns/spf.js';
import { checkSpf } from '../../../src/features/dns/spf-check.js';
import type { TxtFetch } from '../../../src/features/dns/spf-check.js';

/** TXT records by name; absent names are NXDOMAIN; a string value is a failure code. */
function txtZone(zone: Record<string, string[] | 'SERVFAIL' | 'TIMEOUT'>): TxtFetch & { asked: string[] } {
  const asked: string[] = [];
  const fetch = async (name: string) => {
    asked.push(name);
    const entry = zone[name];
    if (entry === undefined) return { ok: false as const, failure: 'NXDOMAIN' as const };
    if (typeof entry === 'string') return { ok: false as const, failure: entry };
    return { ok: true as const, texts: entry };
  };
  return Object.assign(fetch, { asked });
}

describe('SPF syntax', () => {
  it('parses mechanisms with qualifiers, arguments and CIDR lengths', () => {
    const parsed = parseSpf(
      'v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 a mx:mail.example.com/28//64 include:_spf.example.net exists:%{i}._spf.example.com ptr ~all',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(
      parsed.record.mechanisms.map((m) => `${m.qualifier}${m.name}${m.value === undefined ? '' : `:${m.value}`}`),
    ).toEqual([
      '+ip4:192.0.2.0/24',
      '+ip6:2001:db8::/32',
      '+a',
      '+mx:mail.example.com',
      '+include:_spf.example.net',
      '+exists:%{i}._spf.example.com',
      '+ptr',
      '~all',
    ]);
    expect(allQualifier(parsed.record)).toBe('~');
  });

  it('reads redirect= and exp=, ignores unknown modifiers, and is case-insensitive', () => {
    const parsed = parseSpf('V=SPF1 MX foo=bar redirect=_spf.example.com exp=explain.example.com');
    expect(parsed).toEqual({
      ok: true,
      record: {
        mechanisms: [{ qualifier: '+', name: 'mx' }],
        redirect: '_spf.example.com',
        exp: 'explain.example.com',
      },
    });
  });

  it('refuses broken records', () => {
    for (const [text, error] of [
      ['v=spf2 -all', 'does not start with v=spf1'],
      ['v=spf1 include: -all', '"include" needs a domain: "include:"'],
      ['v=spf1 ip4:300.1.1.1 -all', 'invalid address in "ip4:300.1.1.1"'],
      ['v=spf1 ip4:192.0.2.1/33 -all', 'invalid address in "ip4:192.0.2.1/33"'],
      ['v=spf1 ip6:192.0.2.1 -all', 'invalid address in "ip6:192.0.2.1"'],
      ['v=spf1 foo -all', 'unknown mechanism "foo"'],
      ['v=spf1 a/40 -all', 'invalid term "a/40"'],
      ['v=spf1 -all:x', 'invalid term "-all:x"'],
      ['v=spf1 redirect=a.com redirect=b.com', 'more than one redirect= modifier'],
    ] as const) {
      expect(parseSpf(text), text).toEqual({ ok: false, error });
    }
  });
});

describe('SPF evaluation', () => {
  it('is absent without a v=spf1 record, and with NXDOMAIN', async () => {
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['google-site-verification=x'] }))).toEqual({
      present: false,
      valid: false,
      strict: false,
      lookups: 0,
    });
    expect(await checkSpf('a.test', txtZone({}))).toEqual({ present: false, valid: false, strict: false, lookups: 0 });
  });

  it('is valid and strict for a simple -all record, valid but not strict for ~all', async () => {
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 ip4:192.0.2.1 -all'] }))).toMatchObject({
      present: true,
      valid: true,
      strict: true,
      lookups: 0,
    });
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 mx ~all'] }))).toMatchObject({
      present: true,
      valid: true,
      strict: false,
      lookups: 1,
    });
  });

  it('is invalid with two SPF records', async () => {
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 -all', 'v=spf1 mx -all'] }))).toMatchObject({
      present: true,
      valid: false,
      error: 'more than one SPF record',
    });
  });

  it('counts lookups through a tree of includes', async () => {
    const zone = txtZone({
      'a.test': ['v=spf1 include:b.test include:c.test mx -all'],
      'b.test': ['v=spf1 a include:d.test ~all'],
      'c.test': ['v=spf1 ip4:192.0.2.0/24 ?all'],
      'd.test': ['v=spf1 exists:x.d.test -all'],
    });
    expect(await checkSpf('a.test', zone)).toMatchObject({ valid: true, strict: true, lookups: 6 });
  });

  it('accepts exactly 10 lookups and refuses the 11th', async () => {
    const ten = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`i${i}.test`, ['v=spf1 ip4:192.0.2.1 -all']]));
    const includes = Array.from({ length: 9 }, (_, i) => `include:i${i}.test`).join(' ');
    expect(await checkSpf('a.test', txtZone({ ...ten, 'a.test': [`v=spf1 ${includes} mx -all`] }))).toMatchObject({
      valid: true,
      lookups: 10,
    });
    expect(await checkSpf('a.test', txtZone({ ...ten, 'a.test': [`v=spf1 ${includes} mx a -all`] }))).toMatchObject({
      valid: false,
      strict: true,
      error: 'more than 10 DNS lookups',
    });
  });

  it('counts lookups of nested includes against the same limit', async () => {
    const zone = txtZone({
      'a.test': ['v=spf1 include:b.test include:c.test -all'],
      'b.test': ['v=spf1 a mx ptr exists:e.b.test a:x.b.test -all'],
      'c.test': ['v=spf1 a mx ptr exists:e.c.test -all'],
    });
    expect(await checkSpf('a.test', zone)).toMatchObject({ valid: false, error: 'more than 10 DNS lookups' });
  });

  it('detects include loops, direct and indirect', async () => {
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 include:a.test -all'] }))).toMatchObject({
      valid: false,
      error: 'loop: include:a.test is already being evaluated',
    });
    const zone = txtZone({
      'a.test': ['v=spf1 include:b.test -all'],
      'b.test': ['v=spf1 include:c.test -all'],
      'c.test': ['v=spf1 include:A.test. -all'],
    });
    expect(await checkSpf('a.test', zone)).toMatchObject({
      valid: false,
      error: 'loop: include:a.test is already being evaluated',
    });
  });

  it('allows the same include twice in different branches (not a loop)', async () => {
    const zone = txtZone({
      'a.test': ['v=spf1 include:b.test include:c.test -all'],
      'b.test': ['v=spf1 include:s.test -all'],
      'c.test': ['v=spf1 include:s.test -all'],
      's.test': ['v=spf1 ip4:192.0.2.1 -all'],
    });
    expect(await checkSpf('a.test', zone)).toMatchObject({ valid: true, lookups: 4 });
  });

  it('refuses an include without SPF, with two SPF records, that fails to resolve, or that is malformed', async () => {
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 include:none.test -all'] }))).toMatchObject({
      valid: false,
      error: 'include:none.test has no SPF record',
    });
    expect(
      await checkSpf(
        'a.test',
        txtZone({ 'a.test': ['v=spf1 include:b.test -all'], 'b.test': ['v=spf1 -all', 'v=spf1 a -all'] }),
      ),
    ).toMatchObject({
      valid: false,
      error: 'include:b.test has more than one SPF record',
    });
    expect(
      await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 include:b.test -all'], 'b.test': 'SERVFAIL' })),
    ).toMatchObject({
      valid: false,
      error: 'include:b.test could not be resolved (SERVFAIL)',
    });
    expect(
      await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 include:b.test -all'], 'b.test': ['v=spf1 bogus -all'] })),
    ).toMatchObject({
      valid: false,
      error: 'include:b.test unknown mechanism "bogus"',
    });
  });

  it('follows redirect= when there is no all, taking strictness from the target', async () => {
    expect(
      await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 redirect=b.test'], 'b.test': ['v=spf1 mx -all'] })),
    ).toMatchObject({
      valid: true,
      strict: true,
      lookups: 2,
    });
    expect(
      await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 redirect=b.test'], 'b.test': ['v=spf1 mx ~all'] })),
    ).toMatchObject({
      valid: true,
      strict: false,
    });
    // With an all, redirect= is ignored: not followed, not counted.
    const zone = txtZone({ 'a.test': ['v=spf1 -all redirect=b.test'] });
    expect(await checkSpf('a.test', zone)).toMatchObject({ valid: true, strict: true, lookups: 0 });
    expect(zone.asked).toEqual(['a.test']);
    expect(await checkSpf('a.test', txtZone({ 'a.test': ['v=spf1 redirect=a.test'] }))).toMatchObject({
      valid: false,
      error: 'loop: redirect:a.test is already being evaluated',
    });
  });

  it('counts but does not follow an include written with a macro', async () => {
    const zone = txtZone({ 'a.test': ['v=spf1 include:%{d}.spf.test -all'] });
    expect(await checkSpf('a.test', zone)).toMatchObject({ valid: true, lookups: 1 });
    expect(zone.asked).toEqual(['a.test']);
  });
});
