import { isIP } from 'node:net';

export interface CallerAddress {
  /** IPv4 address; `''` for a native IPv6 caller. */
  ip: string;
  /** The IPv6 address as received; `''` for an IPv4 caller. */
  ipv6: string;
  isCurrentIpv6: boolean;
}

/**
 * The caller's address as the caller IP result reports it. `address` is the request's client identity
 * (http/client-identity.ts): plain, an IPv4-mapped IPv6 address already written as IPv4, `''` when unknown.
 */
export function callerAddress(address: string): CallerAddress {
  if (isIP(address) === 6) return { ip: '', ipv6: address, isCurrentIpv6: true };
  return { ip: address, ipv6: '', isCurrentIpv6: false };
}
