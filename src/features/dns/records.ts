import type { DnsRecord } from '../../outbound/dns/dns-types.js';

/** What a record says, without its TTL (which counts down in caches): equal keys mean the same data. */
export function recordKey(record: DnsRecord): string {
  const { ttl: _ttl, ...data } = record;
  const normalised = Object.fromEntries(
    Object.entries(data).map(([field, value]) => [
      field,
      typeof value === 'string' && field !== 'value' && field !== 'tag' ? value.toLowerCase() : value,
    ]),
  );
  if (record.type === 'CNAME' || record.type === 'NS' || record.type === 'PTR')
    normalised.value = record.value.toLowerCase();
  return JSON.stringify(normalised);
}

/** The answer set as a sorted list of keys: two servers agree when these are equal. */
export function answerSignature(records: readonly DnsRecord[]): string {
  return JSON.stringify(records.map(recordKey).sort());
}

/** A TXT record's text as one string (RFC 7208 3.3: character-strings are joined without spaces). */
export function txtValue(record: DnsRecord): string | undefined {
  return record.type === 'TXT' ? record.entries.join('') : undefined;
}
