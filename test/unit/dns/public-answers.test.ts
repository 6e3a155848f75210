import { describe, expect, it } from 'vitest';
import { mayAsk, publicRecords, reverseNameRange } from '../../../src/features/dns/public-answers.js';
import { createRequestBudget } from '../../../src/features/dns/request-budget.js';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';

describe('reverse names', () => {
  it('cover the addresses their labels spell, from the label next to the suffix', () => {
    expect(reverseNameRange('5.0.0.10.in-addr.arpa')).toEqual({ first: '10.0.0.5', last: '10.0.0.5' });
    expect(reverseNameRange('2.0.192.IN-ADDR.ARPA.')).toEqual({ first: '192.0.2.0', last: '192.0.2.255' });
    // RFC 2317 classless delegation: the non-numeric label ends the prefix.
    expect(reverseNameRange('1.0-25.2.0.192.in-addr.arpa')).toEqual({ first: '192.0.2.0', last: '192.0.2.255' });
    expect(reverseNameRange('d.f.ip6.arpa')).toEqual({
      first: 'fd00:0000:0000:0000:0000:0000:0000:0000',
      last: 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    });
    expect(reverseNameRange('example.com')).toBeNull();
    expect(reverseNameRange('xin-addr.arpa')).toBeNull();
    // The apexes, and names with no address label next to the suffix, cover every address.
    const everyIpv4 = { first: '0.0.0.0', last: '255.255.255.255' };
    expect(reverseNameRange('in-addr.arpa')).toEqual(everyIpv4);
    expect(reverseNameRange('IN-ADDR.ARPA.')).toEqual(everyIpv4);
    expect(reverseNameRange('300.in-addr.arpa')).toEqual(everyIpv4);
    expect(reverseNameRange('ip6.arpa')).toEqual({
      first: '0000:0000:0000:0000:0000:0000:0000:0000',
      last: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    });
  });

  it('may be asked unless the whole range they cover is refused by the policy', () => {
    const strict = createAddressPolicy([]);
    for (const name of [
      '5.0.0.10.in-addr.arpa',
      '10.in-addr.arpa',
      '16.172.in-addr.arpa',
      '254.169.in-addr.arpa',
      '1.0.0.127.in-addr.arpa',
      'd.f.ip6.arpa',
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa',
      'in-addr.arpa',
      'ip6.arpa',
      '300.in-addr.arpa',
    ])
      expect(mayAsk(name, strict), name).toBe(false);
    for (const name of [
      '34.216.184.93.in-addr.arpa',
      '1.in-addr.arpa',
      '172.in-addr.arpa',
      '8.4.0.6.8.4.1.0.0.2.ip6.arpa',
      'example.com',
      '_dmarc.example.com',
    ])
      expect(mayAsk(name, strict), name).toBe(true);
    expect(mayAsk('5.0.0.10.in-addr.arpa', createAddressPolicy(['10.0.0.0/8']))).toBe(true);
  });
});

describe('public records', () => {
  it('drop A and AAAA records the policy refuses and keep every other record', () => {
    const records = [
      { type: 'A', address: '10.1.2.3', ttl: 1 },
      { type: 'A', address: '93.184.216.34', ttl: 1 },
      { type: 'AAAA', address: '::ffff:127.0.0.1', ttl: 1 },
      { type: 'CNAME', value: 'db.internal', ttl: 1 },
    ] as const;
    expect(publicRecords([...records], createAddressPolicy([]))).toEqual({
      records: [records[1], records[3]],
      hidden: 2,
    });
    expect(publicRecords([...records], createAddressPolicy(['10.0.0.0/8'])).hidden).toBe(1);
  });
});

describe('request budget', () => {
  it('hands out packets up to its cap, then refuses and remembers it', () => {
    const budget = createRequestBudget({ deadlineMs: 10_000, maxPackets: 2 });
    expect([budget.takePacket(), budget.takePacket(), budget.exhausted()]).toEqual([true, true, false]);
    expect([budget.takePacket(), budget.exhausted()]).toEqual([false, true]);
  });

  it('counts down to its deadline and then stays expired', async () => {
    const budget = createRequestBudget({ deadlineMs: 30, maxPackets: 1 });
    expect(budget.remainingMs()).toBeGreaterThan(0);
    expect(budget.expired()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect([budget.remainingMs(), budget.expired()]).toEqual([0, true]);
  });
});
