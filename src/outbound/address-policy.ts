import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses the service may connect to.
 *
 * The rule is an allow-rule, not a deny-list: an address passes only when
 * ipaddr.js classifies it as plain `unicast` (none of its special-purpose
 * ranges: private, loopback, link-local, CGNAT, multicast, broadcast,
 * unspecified, reserved/documentation/benchmarking, 6to4, Teredo, NAT64,
 * unique-local, site-local, discard, ORCHID, AS112, AMT, …) and, for IPv6,
 * lies in 2000::/3, the only block IANA hands out as global unicast. Anything
 * we cannot parse is refused. Ranges from OUTBOUND_ALLOW_CIDRS are exempt.
 */
export interface AddressPolicy {
  isAllowed(ip: string): boolean;
  /** Inside OUTBOUND_ALLOW_CIDRS: allowed by the operator's say-so, not by being public. */
  isExempt(ip: string): boolean;
}

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [IpAddress, number];

// IANA's global unicast block; ipaddr.js calls e.g. 4000::1 "unicast" although
// nothing is routed there, so we narrow it ourselves.
const IPV6_GLOBAL_UNICAST: Cidr = ipaddr.parseCIDR('2000::/3');
// Deprecated IPv4-compatible form (::a.b.c.d): judged by the IPv4 it carries.
const IPV4_COMPATIBLE: Cidr = ipaddr.parseCIDR('::/96');

export function createAddressPolicy(allowCidrs: readonly string[]): AddressPolicy {
  const exempt = allowCidrs.map(parseAllowEntry);
  return {
    isAllowed(ip: string): boolean {
      const address = parseIp(ip);
      if (address === null) return false;
      if (isExempt(address, exempt)) return true;
      return isPublicUnicast(address);
    },
    isExempt(ip: string): boolean {
      const address = parseIp(ip);
      return address !== null && isExempt(address, exempt);
    },
  };
}

/**
 * The IP literal a URL host stands for, in canonical form without brackets,
 * or null when the host is a name (or not a valid host at all).
 *
 * WHATWG URL parsing already turns every IPv4 spelling it accepts (decimal
 * `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`, percent- or
 * full-width-encoded digits, trailing dot) into dotted quad, and compresses
 * IPv6; we lean on that instead of a second parser that could disagree with
 * the one that decides where the request goes.
 */
export function ipFromUrlHost(host: string): string | null {
  // Anything that could end the authority would make us judge a different
  // host than the one given.
  if (host === '' || /[\s/\\?#@]/.test(host)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  return isIP(hostname) === 0 ? null : hostname;
}

function parseIp(text: string): IpAddress | null {
  const literal = isIP(text) !== 0 ? text : ipFromUrlHost(text);
  if (literal === null) return null;
  try {
    return ipaddr.parse(literal);
  } catch {
    return null;
  }
}

function parseAllowEntry(entry: string): Cidr {
  const text = entry.trim();
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(`invalid CIDR in outbound allow list: "${entry}"`);
  }
}

function isExempt(address: IpAddress, exempt: readonly Cidr[]): boolean {
  // An IPv4-mapped address reaches the IPv4 host, so an IPv4 exemption covers it.
  const candidates =
    address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? [address, (address as ipaddr.IPv6).toIPv4Address()]
      : [address];
  return candidates.some((candidate) => exempt.some((cidr) => inCidr(candidate, cidr)));
}

function inCidr(address: IpAddress, cidr: Cidr): boolean {
  // ipaddr.js throws when matching across families.
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

function isPublicUnicast(address: IpAddress): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  // Both embed an IPv4 address; the embedded one is what matters. The
  // unspecified (::) and loopback (::1) addresses fall in ::/96 too and come
  // out as 0.0.0.0 / 0.0.0.1, which are refused.
  if (v6.isIPv4MappedAddress()) return isPublicUnicast(v6.toIPv4Address());
  if (v6.match(IPV4_COMPATIBLE)) return isPublicUnicast(embeddedIpv4(v6));
  return v6.range() === 'unicast' && v6.match(IPV6_GLOBAL_UNICAST);
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}
