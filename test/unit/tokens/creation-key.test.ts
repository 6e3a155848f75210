import { describe, expect, it } from 'vitest';
import { creationKey } from '../../../src/features/tokens/creation-key.js';

describe('creationKey: what the token-creation rate limit counts under', () => {
  it('keys an IPv4 client by its address', () => {
    expect(creationKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(creationKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it('keys every address of one IPv6 /64 alike, in canonical form', () => {
    expect(creationKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(creationKey('2001:db8::ffff:1:2')).toBe('2001:db8::/64');
    expect(creationKey('2001:DB8:0:0:8:8:8:8')).toBe('2001:db8::/64');
    expect(creationKey('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('keys different /64s apart', () => {
    expect(creationKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(creationKey('2001:db8:0:1::1')).not.toBe(creationKey('2001:db8:0:2::1'));
  });

  it('keeps what is not an IP address as given, at most 64 characters', () => {
    expect(creationKey('unknown')).toBe('unknown');
    expect(creationKey('z'.repeat(1000))).toBe('z'.repeat(64));
  });
});
