import { describe, expect, it } from 'vitest';
import { parseTarget, reverseName } from '../../../src/features/dns/names.js';

describe('targets of a DNS lookup', () => {
  it('keeps valid names in lower case without the trailing dot', () => {
    expect(parseTarget('Example.COM.')).toEqual({ kind: 'domain', input: 'Example.COM.', name: 'example.com' });
    expect(parseTarget('  sub.example.co.uk ')).toEqual({
      kind: 'domain',
      input: 'sub.example.co.uk',
      name: 'sub.example.co.uk',
    });
  });

  it('turns international names into punycode', () => {
    expect(parseTarget('bücher.de')).toMatchObject({ kind: 'domain', name: 'xn--bcher-kva.de' });
    expect(parseTarget('例え.テスト')).toMatchObject({ kind: 'domain', name: 'xn--r8jz45g.xn--zckzah' });
    expect(parseTarget('ＥＸＡＭＰＬＥ.com')).toMatchObject({ name: 'example.com' });
  });

  it('allows service labels with underscores', () => {
    expect(parseTarget('_dmarc.example.com')).toMatchObject({ name: '_dmarc.example.com' });
    expect(parseTarget('_sip._tcp.example.com')).toMatchObject({ name: '_sip._tcp.example.com' });
  });

  it('turns IP addresses into PTR names', () => {
    expect(parseTarget('192.0.2.5')).toEqual({
      kind: 'ip',
      input: '192.0.2.5',
      ip: '192.0.2.5',
      name: '5.2.0.192.in-addr.arpa',
    });
    expect(parseTarget('2001:db8::1')).toMatchObject({
      kind: 'ip',
      ip: '2001:db8::1',
      name: '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    });
    expect(parseTarget('[2001:DB8:0::1]')).toMatchObject({ kind: 'ip', ip: '2001:db8::1' });
    expect(reverseName('10.0.0.1')).toBe('1.0.0.10.in-addr.arpa');
  });

  it('refuses what is neither a host name nor an IP address', () => {
    for (const bad of [
      '',
      '   ',
      'localhost',
      'a..b.com',
      '-a.com',
      'a-.com',
      'ex ample.com',
      'exa$mple.com',
      'http://example.com',
      'example.com/x',
      'example.com?x',
      'example.com#x',
      'a%2ecom',
      'a.com\\x',
      'a.com:80',
      '1.2.3',
      '999.1.1.1',
      '0x7f.1',
      'foo.123',
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(127)}com`,
      'user@example.com',
    ]) {
      expect(parseTarget(bad), bad).toBeNull();
    }
  });
});
