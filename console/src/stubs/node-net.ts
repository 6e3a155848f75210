/**
 * Stands in for node:net in the browser bundle (scripts/build-console.ts and console/tsconfig.json map it here), so the
 * service's own name and URL rules (src/features/dns/names.ts, src/outbound/url-rules.ts) run in the page unchanged.
 * Only `isIP` is used: Node's dotted-decimal IPv4 rule (no leading zeros), and IPv6 as ipaddr.js reads it.
 */
import ipaddr from 'ipaddr.js';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

export function isIP(input: string): 0 | 4 | 6 {
  if (IPV4.test(input)) return 4;
  return input.includes(':') && ipaddr.IPv6.isValid(input) ? 6 : 0;
}
