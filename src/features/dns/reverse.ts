import { performance } from 'node:perf_hooks';
import type { DnsRecord } from '../../outbound/dns/dns-types.js';
import { reverseName } from './names.js';
import type { RequestResolver } from './request-resolver.js';

/** docs/contract.md#dns-lookup: `reverseLookup` of a result. */
export interface ReverseLookup {
  readonly hostnames: string[];
  /** Milliseconds spent in PTR lookups. */
  readonly responseTime: number;
}

/** A domain with many addresses is not a reason for many queries. */
export const MAX_REVERSE_ADDRESSES = 10;

export function addressesOf(records: readonly DnsRecord[]): string[] {
  const out: string[] = [];
  for (const record of records)
    if ((record.type === 'A' || record.type === 'AAAA') && !out.includes(record.address)) out.push(record.address);
  return out;
}

export function ptrHostnames(records: readonly DnsRecord[]): string[] {
  const out: string[] = [];
  for (const record of records) if (record.type === 'PTR' && !out.includes(record.value)) out.push(record.value);
  return out;
}

/** PTR names of the addresses a domain resolved to (the first MAX_REVERSE_ADDRESSES), deduplicated. */
export async function reverseLookup(resolver: RequestResolver, addresses: readonly string[]): Promise<ReverseLookup> {
  const started = performance.now();
  const results = await Promise.all(
    addresses.slice(0, MAX_REVERSE_ADDRESSES).map((address) => resolver.query(reverseName(address), 'PTR')),
  );
  const hostnames = ptrHostnames(results.flatMap((result) => (result.ok ? result.records : [])));
  return { hostnames, responseTime: Math.round(performance.now() - started) };
}
