import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

/** What one entry of `domains` asks for: a name's records, or an address's PTR. */
export type Target =
  | { readonly kind: 'domain'; readonly input: string; readonly name: string }
  | { readonly kind: 'ip'; readonly input: string; readonly ip: string; readonly name: string };

export const MAX_NAME_LENGTH = 253;
/** Letters, digits, hyphens inside; underscores allowed for service labels (`_dmarc`, `_sip._tcp`). */
// eslint-disable-next-line no-control-regex
const URL_SYNTAX = /[\u0000-\u0020\u007f/\\?#@:%[\]]/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The PTR name of an address: `4.3.2.1.in-addr.arpa` or the nibbles under `ip6.arpa`. */
export function reverseName(ip: string): string {
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return `${address.toByteArray().reverse().join('.')}.in-addr.arpa`;
  const hex = (address as ipaddr.IPv6)
    .toByteArray()
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  return `${hex.split('').reverse().join('.')}.ip6.arpa`;
}

/**
 * An entry of `domains` made ready for the wire: IP addresses become PTR names, international
 * names become punycode (UTS #46 via WHATWG URL), case and one trailing dot are dropped.
 * Null when it is neither a valid host name nor an IP address.
 */
export function parseTarget(raw: string): Target | null {
  const input = raw.trim();
  if (input === '') return null;
  const literal = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (isIP(literal) !== 0) {
    const ip = ipaddr.parse(literal).toString();
    return { kind: 'ip', input, ip, name: reverseName(ip) };
  }
  // domainToASCII parses a URL host: it would cut `a.com/x`, `a.com?x` or `a.com#x` down to `a.com`
  // and percent-decode `a%2ecom`. Such input is not a name.
  if (URL_SYNTAX.test(input)) return null;
  // A numeric last label would be read as an IPv4 address in some other spelling (`1.2.3`, `0x7f.1`).
  const lastLabel = input.replace(/\.$/, '').split('.').pop() ?? '';
  if (/^(0x[0-9a-f]*|\d+)$/i.test(lastLabel)) return null;
  const ascii = domainToASCII(input).replace(/\.$/, '');
  if (ascii === '' || ascii.length > MAX_NAME_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return { kind: 'domain', input, name: ascii };
}
