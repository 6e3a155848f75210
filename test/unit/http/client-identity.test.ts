import { describe, expect, it } from 'vitest';
import { clientKey, plainAddress } from '../../../src/http/client-identity.js';

describe('plainAddress: an address as proxies write it, read plain', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.7:5678', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]:80', '203.0.113.7'],
    ['2001:db8::1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
  ])('reads %s as %s', (written, plain) => {
    expect(plainAddress(written)).toBe(plain);
  });

  it.each([
    '',
    'unknown',
    'junk:1',
    '[203.0.113.7]:80',
    '2001:db8::1:443:x',
    '203.0.113.300',
    '203.0.113.7:port',
    '[nope]:1',
    'z'.repeat(500),
    `${'1'.repeat(70)}`,
  ])('finds no address in %s', (written) => {
    expect(plainAddress(written)).toBeUndefined();
  });
});

describe('clientKey: what a per-client limit counts under', () => {
  it('keys an IPv4 client by its address', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('keys every address of one IPv6 /64 alike, in canonical form', () => {
    expect(clientKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(clientKey('2001:db8::ffff:1:2')).toBe('2001:db8::/64');
    expect(clientKey('2001:DB8:0:0:8:8:8:8')).toBe('2001:db8::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('keys different /64s apart', () => {
    expect(clientKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8:0:1::1')).not.toBe(clientKey('2001:db8:0:2::1'));
  });
});
