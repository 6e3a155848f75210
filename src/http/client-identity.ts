import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** Who a request comes from, as every per-client rule sees it (docs/limits.md "Client identity and the free budget"). */
export interface ClientIdentity {
  /** The caller's address, plain: no port or brackets, IPv4-mapped IPv6 written as IPv4, IPv6 as received; `''` when none is known. */
  readonly address: string;
  /** What per-client limits count under: an IPv4 address, an IPv6 /64 (`2001:db8:1:2::/64`: one home or server), or `unknown`. */
  readonly key: string;
}

/** Whether the hop at `address` (0: the connection's peer) is a proxy whose X-Forwarded-For is believed (TRUST_PROXY). */
export type TrustedProxies = (address: string, hop: number) => boolean;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, derived once per request when first asked for. */
    readonly client: ClientIdentity;
  }
}

/** Longer than any written form of an address with a port: anything longer is not parsed. */
const MAX_ADDRESS_LENGTH = 64;
const UNKNOWN: ClientIdentity = { address: '', key: 'unknown' };

/** TRUST_PROXY compiled once, for Fastify (request.ip, X-Forwarded-Host/Proto), this module and the request ids alike. */
export function trustedProxies(setting: string | undefined): TrustedProxies | undefined {
  return setting === undefined ? undefined : proxyAddr.compile(setting.split(',').map((entry) => entry.trim()));
}

/**
 * `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]`, `[2001:db8::1]:443`, `2001:db8::1`, `fe80::1%eth0`, `::ffff:1.2.3.4`
 * (proxies write all of these into X-Forwarded-For) → the plain address; undefined when it is not one.
 */
export function plainAddress(written: string): string | undefined {
  const text = written.trim();
  if (text.length > MAX_ADDRESS_LENGTH) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text)?.[1];
  const withPort = /^([\d.]+):\d{1,5}$/.exec(text)?.[1];
  const candidate = bracketed ?? withPort ?? text;
  const kind = isIP(candidate);
  if (kind === 0 || (bracketed !== undefined && kind !== 6) || (withPort !== undefined && kind !== 4)) return undefined;
  if (kind === 4) return candidate;
  const parsed = ipaddr.IPv6.parse(withoutZone(candidate));
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : candidate;
}

/** `fe80::1%eth0` → `fe80::1`: the zone names an interface of the machine that wrote it, not a client. */
const withoutZone = (address: string): string => address.replace(/%.*$/, '');

/** The limit key of a plain address: itself for IPv4, its /64 for IPv6 (a client holds a whole /64, so it is one client). */
export function clientKey(address: string): string {
  if (isIP(address) === 4) return address;
  const parts = ipaddr.IPv6.parse(withoutZone(address)).parts;
  return `${new ipaddr.IPv6([parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 0, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The caller of `request`: walking from the connection's peer out through X-Forwarded-For while each hop is a trusted
 * proxy, the first that is not (or the last entry). Each hop is read plain first, so a port or brackets never decide
 * trust or make a new client. An entry that is no address is not taken for the client: the trusted hop that handed it
 * over is, so junk from behind one proxy is one client (that proxy), never a fresh key per string.
 */
export function identify(request: IncomingMessage, trusted: TrustedProxies | undefined): ClientIdentity {
  // proxy-addr's list: the peer first, then X-Forwarded-For from the nearest entry out.
  const hops = trusted === undefined ? [request.socket.remoteAddress ?? ''] : proxyAddr.all(request);
  let named: string | undefined;
  for (let hop = 0; hop < hops.length; hop++) {
    const address = plainAddress(hops[hop] ?? '');
    if (address === undefined) break;
    named = address;
    if (trusted === undefined || !trusted(address, hop)) break;
  }
  return named === undefined ? UNKNOWN : { address: named, key: clientKey(named) };
}

/** `request.client`: the caller, computed on first use and kept for the rest of the request. */
export function registerClientIdentity(app: FastifyInstance, trusted: TrustedProxies | undefined): void {
  const known = new WeakMap<FastifyRequest, ClientIdentity>();
  app.decorateRequest('client', {
    getter(this: FastifyRequest): ClientIdentity {
      let identity = known.get(this);
      if (identity === undefined) {
        identity = identify(this.raw, trusted);
        known.set(this, identity);
      }
      return identity;
    },
  });
}
