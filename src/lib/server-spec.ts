import { isIP } from 'node:net';

/** The words for a text parseServerSpec refuses, after `Invalid <field>: `. */
export const SERVER_SPEC_RULE = 'must be an IP address or host name, optionally with :port';

/** Where a DNS server listens unless told otherwise. */
export const DNS_PORT = 53;

/** A server as written by a person: a host (IP literal or name) and a port. */
export interface ServerSpec {
  readonly host: string;
  readonly port: number;
  readonly isIp: boolean;
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

function port(text: string | undefined): number | null {
  if (text === undefined) return DNS_PORT;
  if (!/^\d{1,5}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= 65535 ? value : null;
}

/**
 * `1.2.3.4`, `1.2.3.4:53`, `2001:db8::1`, `[2001:db8::1]:53`, `dns.example` or `dns.example:53`;
 * null when it is none of these.
 */
export function parseServerSpec(text: string): ServerSpec | null {
  const value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(value);
  if (bracketed) {
    const p = port(bracketed[2]);
    return isIP(bracketed[1] ?? '') === 6 && p !== null ? { host: bracketed[1] as string, port: p, isIp: true } : null;
  }
  if (isIP(value) !== 0) return { host: value, port: DNS_PORT, isIp: true };
  const withPort = /^([^:]+)(?::([^:]*))?$/.exec(value);
  if (withPort === null) return null;
  const host = withPort[1] as string;
  const p = port(withPort[2]);
  if (p === null) return null;
  if (isIP(host) === 4) return { host, port: p, isIp: true };
  // A name must not look like a mangled IPv4 address (`1.2.3`, `1.2.3.999`).
  if (!HOST_NAME.test(host) || /^[\d.]+$/.test(host)) return null;
  return { host: host.replace(/\.$/, '').toLowerCase(), port: p, isIp: false };
}
