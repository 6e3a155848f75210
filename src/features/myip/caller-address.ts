import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface CallerAddress {
  /** IPv4 address; `''` for a native IPv6 caller. */
  ip: string;
  /** The IPv6 address as received; `''` for an IPv4 caller. */
  ipv6: string;
  isCurrentIpv6: boolean;
}

/**
 * `1.2.3.4`, `[2001:db8::1]`, `[2001:db8::1]:443` or `1.2.3.4:5678` (some proxies write ports into
 * X-Forwarded-For) → the bare address, or `''` when it is not one.
 */
function bareAddress(raw: string): string {
  const text = raw.trim();
  if (isIP(text) !== 0) return text;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1];
  if (bracketed !== undefined && isIP(bracketed) === 6) return bracketed;
  const withPort = /^([\d.]+):\d+$/.exec(text)?.[1];
  if (withPort !== undefined && isIP(withPort) === 4) return withPort;
  return '';
}

/**
 * The caller's address as the caller IP result reports it. `raw` is Fastify's `request.ip`: the socket
 * address, or the X-Forwarded-For entry TRUST_PROXY lets through. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, what a dual-stack listener reports for IPv4 clients) is an IPv4 caller.
 */
export function callerAddress(raw: string | undefined): CallerAddress {
  const address = bareAddress(raw ?? '');
  if (address === '') return { ip: '', ipv6: '', isCurrentIpv6: false };
  if (isIP(address) === 4) return { ip: address, ipv6: '', isCurrentIpv6: false };
  const parsed = ipaddr.IPv6.parse(address.replace(/%.*$/, ''));
  if (parsed.isIPv4MappedAddress()) return { ip: parsed.toIPv4Address().toString(), ipv6: '', isCurrentIpv6: false };
  return { ip: '', ipv6: address, isCurrentIpv6: true };
}
