import type { AddressPolicy } from '../../outbound/address-policy.js';
import type { DnsRecord } from '../../outbound/dns/dns-types.js';
import type { QueryResult } from '../../outbound/dns/wire-client.js';

/**
 * Security review point 11: the service's own resolver may see internal zones (a cloud's or a
 * cluster's), so what /dns-lookup shows is limited to public address space, judged by the outbound
 * address policy (OUTBOUND_ALLOW_CIDRS exempts ranges): A/AAAA records outside it are removed, and
 * names under in-addr.arpa / ip6.arpa that stand for such addresses are never asked.
 */

const IPV4_REVERSE = '.in-addr.arpa';
const IPV6_REVERSE = '.ip6.arpa';

/** The addresses a reverse name covers, read from the labels next to the suffix. */
export interface AddressRange {
  readonly first: string;
  readonly last: string;
}

function ipv4Range(labels: readonly string[]): AddressRange {
  const octets: number[] = [];
  // The label next to the suffix is the first octet; a non-numeric label (RFC 2317 `0-25`) ends the prefix.
  for (let i = labels.length - 1; i >= 0 && octets.length < 4; i--) {
    const label = labels[i] as string;
    if (label.length === 0 || label.length > 3 || !/^\d+$/.test(label) || Number(label) > 255) break;
    octets.push(Number(label));
  }
  const fill = (value: number) => [...octets, ...Array<number>(4 - octets.length).fill(value)].join('.');
  return { first: fill(0), last: fill(255) };
}

function ipv6Range(labels: readonly string[]): AddressRange {
  let nibbles = '';
  for (let i = labels.length - 1; i >= 0 && nibbles.length < 32; i--) {
    const label = labels[i] as string;
    if (!/^[0-9a-f]$/.test(label)) break;
    nibbles += label;
  }
  const fill = (digit: string) => (nibbles + digit.repeat(32 - nibbles.length)).replace(/(.{4})(?!$)/g, '$1:');
  return { first: fill('0'), last: fill('f') };
}

/**
 * `2.0.192.in-addr.arpa` → 192.0.2.0 to 192.0.2.255; null for a name outside the reverse zones. The zones' apexes, and
 * names with no address label next to the suffix, cover the whole address space.
 */
export function reverseNameRange(name: string): AddressRange | null {
  // A DNS name is at most 253 characters: cut before transforming.
  const canonical = `.${name.slice(0, 256).toLowerCase().replace(/\.$/, '')}`;
  if (canonical.endsWith(IPV4_REVERSE)) return ipv4Range(canonical.slice(1, -IPV4_REVERSE.length).split('.'));
  if (canonical.endsWith(IPV6_REVERSE)) return ipv6Range(canonical.slice(1, -IPV6_REVERSE.length).split('.'));
  return null;
}

/** Whether a name may be asked: anything but a reverse name whose whole range is refused by the policy. */
export function mayAsk(name: string, policy: AddressPolicy): boolean {
  const range = reverseNameRange(name);
  return range === null || policy.isAllowed(range.first) || policy.isAllowed(range.last);
}

export const NOT_ASKED: QueryResult = { ok: false, failure: 'NON_PUBLIC_ADDRESS', elapsedMs: 0 };

/** An answer that a CNAME led into a refused reverse zone is treated as never asked. */
export function screenOwner(result: QueryResult, policy: AddressPolicy): QueryResult {
  if (!result.ok || result.owner === undefined || mayAsk(result.owner, policy)) return result;
  return { ...NOT_ASKED, elapsedMs: result.elapsedMs };
}

/** The records without A/AAAA records the policy refuses, and how many were removed. */
export function publicRecords(
  records: readonly DnsRecord[],
  policy: AddressPolicy,
): { readonly records: DnsRecord[]; readonly hidden: number } {
  const shown = records.filter(
    (record) => (record.type !== 'A' && record.type !== 'AAAA') || policy.isAllowed(record.address),
  );
  return { records: shown, hidden: records.length - shown.length };
}

export const hiddenWarning = (count: number): string =>
  `${count} non-public address${count === 1 ? '' : 'es'} removed from the answers (NON_PUBLIC_ADDRESS)`;
export const NOT_ASKED_WARNING =
  'Names under the reverse zone of a non-public address are not looked up (NON_PUBLIC_ADDRESS)';
