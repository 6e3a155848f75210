import type { Answer } from 'dns-packet';
import type { DnsRecord } from './dns-types.js';

const text = (value: string | Buffer): string => (Buffer.isBuffer(value) ? value.toString('utf8') : value);
/** dns-packet spells the root as "." or ""; a null MX (RFC 7505) reads as ".". */
const host = (name: string | undefined): string => (name === undefined || name === '' ? '.' : name);

/** One wire answer in the shape of docs/contract.md#dns-lookup; undefined for types we do not report. */
export function toRecord(answer: Answer): DnsRecord | undefined {
  if (answer.type === 'OPT') return undefined;
  const ttl = answer.ttl ?? 0;
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return { type: answer.type, address: answer.data, ttl };
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return { type: answer.type, value: host(answer.data), ttl };
    case 'MX':
      return { type: 'MX', exchange: host(answer.data.exchange), priority: answer.data.preference ?? 0, ttl };
    case 'TXT': {
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
      return { type: 'TXT', entries: parts.map(text), ttl };
    }
    case 'SOA':
      return {
        type: 'SOA',
        nsname: host(answer.data.mname),
        hostmaster: host(answer.data.rname),
        serial: answer.data.serial ?? 0,
        refresh: answer.data.refresh ?? 0,
        retry: answer.data.retry ?? 0,
        expire: answer.data.expire ?? 0,
        minttl: answer.data.minimum ?? 0,
        ttl,
      };
    case 'CAA':
      return { type: 'CAA', flags: answer.data.flags ?? 0, tag: answer.data.tag, value: answer.data.value, ttl };
    case 'SRV':
      return {
        type: 'SRV',
        priority: answer.data.priority ?? 0,
        weight: answer.data.weight ?? 0,
        port: answer.data.port,
        target: host(answer.data.target),
        ttl,
      };
    default:
      return undefined;
  }
}
