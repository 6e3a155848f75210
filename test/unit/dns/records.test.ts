import { describe, expect, it } from 'vitest';
import type { Answer } from 'dns-packet';
import { answerSignature, recordKey } from '../../../src/features/dns/records.js';
import { toRecord } from '../../../src/outbound/dns/wire-records.js';

const answer = (value: unknown) => value as Answer;

describe('wire answers become the contract’s record shapes', () => {
  it('maps each type with its type and ttl', () => {
    expect(toRecord(answer({ type: 'A', name: 'a.test', ttl: 30, data: '192.0.2.1' }))).toEqual({
      type: 'A',
      address: '192.0.2.1',
      ttl: 30,
    });
    expect(toRecord(answer({ type: 'AAAA', name: 'a.test', ttl: 31, data: '2001:db8::1' }))).toEqual({
      type: 'AAAA',
      address: '2001:db8::1',
      ttl: 31,
    });
    expect(
      toRecord(answer({ type: 'MX', name: 'a.test', ttl: 32, data: { preference: 5, exchange: 'mx.a.test' } })),
    ).toEqual({
      type: 'MX',
      exchange: 'mx.a.test',
      priority: 5,
      ttl: 32,
    });
    expect(
      toRecord(answer({ type: 'TXT', name: 'a.test', ttl: 33, data: [Buffer.from('v=spf1 '), Buffer.from('-all')] })),
    ).toEqual({
      type: 'TXT',
      entries: ['v=spf1 ', '-all'],
      ttl: 33,
    });
    for (const type of ['CNAME', 'NS', 'PTR'] as const) {
      expect(toRecord(answer({ type, name: 'a.test', ttl: 34, data: 'b.test' }))).toEqual({
        type,
        value: 'b.test',
        ttl: 34,
      });
    }
    expect(
      toRecord(
        answer({
          type: 'SOA',
          name: 'a.test',
          ttl: 35,
          data: { mname: 'ns.a.test', rname: 'h.a.test', serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 5 },
        }),
      ),
    ).toEqual({
      type: 'SOA',
      nsname: 'ns.a.test',
      hostmaster: 'h.a.test',
      serial: 1,
      refresh: 2,
      retry: 3,
      expire: 4,
      minttl: 5,
      ttl: 35,
    });
    expect(
      toRecord(
        answer({
          type: 'CAA',
          name: 'a.test',
          ttl: 36,
          data: { flags: 128, tag: 'issue', value: 'ca.test', issuerCritical: true },
        }),
      ),
    ).toEqual({
      type: 'CAA',
      flags: 128,
      tag: 'issue',
      value: 'ca.test',
      ttl: 36,
    });
    expect(
      toRecord(
        answer({
          type: 'SRV',
          name: '_x._tcp.a.test',
          ttl: 37,
          data: { priority: 1, weight: 2, port: 443, target: 't.a.test' },
        }),
      ),
    ).toEqual({
      type: 'SRV',
      priority: 1,
      weight: 2,
      port: 443,
      target: 't.a.test',
      ttl: 37,
    });
  });

  it('writes a null MX (RFC 7505) exchange as "." and a missing ttl as 0', () => {
    expect(toRecord(answer({ type: 'MX', name: 'a.test', data: { preference: 0, exchange: '' } }))).toEqual({
      type: 'MX',
      exchange: '.',
      priority: 0,
      ttl: 0,
    });
  });

  it('skips types it does not report', () => {
    expect(toRecord(answer({ type: 'OPT', name: '.', udpPayloadSize: 1232 }))).toBeUndefined();
    expect(toRecord(answer({ type: 'DS', name: 'a.test', ttl: 1, data: {} }))).toBeUndefined();
  });

  it('compares records without their TTL, names without case, and answer sets without order', () => {
    expect(recordKey({ type: 'A', address: '192.0.2.1', ttl: 1 })).toBe(
      recordKey({ type: 'A', address: '192.0.2.1', ttl: 999 }),
    );
    expect(recordKey({ type: 'CNAME', value: 'B.test', ttl: 1 })).toBe(
      recordKey({ type: 'CNAME', value: 'b.test', ttl: 2 }),
    );
    expect(recordKey({ type: 'TXT', entries: ['A'], ttl: 1 })).not.toBe(
      recordKey({ type: 'TXT', entries: ['a'], ttl: 1 }),
    );
    const a = { type: 'A' as const, address: '192.0.2.1', ttl: 5 };
    const b = { type: 'A' as const, address: '192.0.2.2', ttl: 5 };
    expect(answerSignature([a, b])).toBe(answerSignature([{ ...b, ttl: 60 }, a]));
    expect(answerSignature([a])).not.toBe(answerSignature([a, b]));
  });
});
