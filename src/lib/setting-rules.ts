import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Rules for settings whose values have a syntax. Each returns what is wrong (printed after the variable's
 * name) or undefined when the value is fine; config.ts turns a problem into a ConfigError.
 */

/** RFC 1123 host names: labels of letters, digits and inner hyphens, up to 253 characters in all. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

export function hostProblem(value: string): string | undefined {
  return isIP(value) !== 0 || HOST_NAME.test(value) ? undefined : `"${value}" is not an IP address or a host name`;
}

export function domainProblem(value: string): string | undefined {
  return HOST_NAME.test(value) && isIP(value) === 0
    ? undefined
    : `"${value}" is not a domain name (letters, digits, hyphens and dots)`;
}

/** As the outbound address guard reads each entry (ipaddr.js): an address, or an address/prefix. */
export function allowedRangeProblem(entry: string): string | undefined {
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return undefined;
  } catch {
    return `"${entry}" is not an IP address or a CIDR range (address/prefix, e.g. 10.0.0.0/8)`;
  }
}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** As Fastify's proxy-addr reads each entry: a keyword, an address, address/prefix or IPv4 address/netmask. */
export function trustedProxyProblem(entry: string): string | undefined {
  if (PROXY_KEYWORDS.includes(entry)) return undefined;
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const range = slash === -1 ? undefined : entry.slice(slash + 1);
  const valid = ipaddr.isValid(address);
  const max = valid && ipaddr.parse(address).kind() === 'ipv6' ? 128 : 32;
  const rangeValid =
    range === undefined ||
    (/^\d+$/.test(range) ? Number(range) >= 1 && Number(range) <= max : max === 32 && netmaskPrefix(range) > 0);
  return valid && rangeValid
    ? undefined
    : `"${entry}" is not an IP address, a CIDR range or one of ${PROXY_KEYWORDS.join(', ')}`;
}

/** The prefix length of an IPv4 netmask (255.255.0.0: 16), or 0 when it is not one. */
function netmaskPrefix(mask: string): number {
  return ipaddr.IPv4.isValid(mask) ? (ipaddr.IPv4.parse(mask).prefixLengthFromSubnetMask() ?? 0) : 0;
}

export function smtpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an smtp:// or smtps:// URL';
  }
  return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== ''
    ? undefined
    : 'must be an smtp:// or smtps:// URL';
}

/** `someone@example.com` or `Name <someone@example.com>`, on one line. */
export function senderProblem(value: string): string | undefined {
  return /^[^\r\n]*[^\s@<>]@[^\s@<>]+>?$/.test(value)
    ? undefined
    : 'must be an e-mail address (someone@example.com or Name <someone@example.com>)';
}

/** What node-postgres will parse (it uses WHATWG URL): a bad port or escape would otherwise surface as a stack trace. */
export function postgresUrlProblem(value: string): string | undefined {
  try {
    new URL(value);
    return undefined;
  } catch {
    return 'is not a valid postgres:// URL';
  }
}
