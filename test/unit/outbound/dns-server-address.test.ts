import { describe, expect, it } from 'vitest';
import { resolverAddresses } from '../../../src/outbound/dns/server-address.js';

describe('resolver addresses', () => {
  it('uses DNS_SERVERS when set', () => {
    expect(resolverAddresses(['127.0.0.1:5300', '[::1]:53'])).toEqual([
      { host: '127.0.0.1', port: 5300 },
      { host: '::1', port: 53 },
    ]);
  });
});
