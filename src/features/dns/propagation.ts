import { errors } from '../../errors.js';
import type { AddressPolicy } from '../../outbound/address-policy.js';
import type { DnsRecord, RecordType, ServerAddress } from '../../outbound/dns/dns-types.js';
import { answerSignature } from './records.js';
import type { RequestResolver } from './request-resolver.js';
import { DNS_PORT, parseServerSpec, SERVER_SPEC_RULE } from '../../lib/server-spec.js';
import type { ServerSpec } from '../../lib/server-spec.js';
import type { QueryResult } from '../../outbound/dns/wire-client.js';

/** A resolver asked during a propagation check. */
export interface PropagationServer {
  /** Its key in `servers`: the default's IP, or the entry as the caller wrote it. */
  readonly name: string;
  readonly address: ServerAddress;
  /** Who runs it and where; `custom` for servers the caller chose. */
  readonly location: string;
}

const publicResolver = (ip: string, location: string): PropagationServer => ({
  name: ip,
  address: { host: ip, port: DNS_PORT },
  location,
});

/** docs/contract.md#dns-lookup: the default propagation resolvers. All are anycast; the label names the operator and its home. */
export const DEFAULT_PROPAGATION_SERVERS: readonly PropagationServer[] = [
  publicResolver('8.8.8.8', 'Google Public DNS (anycast, US)'),
  publicResolver('8.8.4.4', 'Google Public DNS secondary (anycast, US)'),
  publicResolver('1.1.1.1', 'Cloudflare (anycast, US)'),
  publicResolver('1.0.0.1', 'Cloudflare secondary (anycast, US)'),
  publicResolver('9.9.9.9', 'Quad9 (anycast, CH)'),
  publicResolver('208.67.222.222', 'OpenDNS by Cisco (anycast, US)'),
  publicResolver('94.140.14.14', 'AdGuard DNS (anycast, CY)'),
  publicResolver('76.76.2.0', 'Control D (anycast, CA)'),
];

export const CUSTOM_LOCATION = 'custom';

const PORT_RULE = `port must be ${DNS_PORT}`;

/** An entry of `propagationServers` as written (a host, maybe a port), or the 400 naming it: no network asked. */
export function parseServerEntry(entry: string, index: number): ServerSpec {
  const spec = parseServerSpec(entry);
  if (spec === null) throw errors.invalidField(`propagationServers[${index}]`, SERVER_SPEC_RULE);
  return spec;
}

/** Why a server written as an IP address is refused (not public; a port other than 53 outside the exempt ranges), or null. */
function addressProblem(spec: ServerSpec, policy: AddressPolicy): string | null {
  if (!policy.isAllowed(spec.host)) return `${spec.host} is not a public address`;
  return spec.port !== DNS_PORT && !policy.isExempt(spec.host) ? PORT_RULE : null;
}

/**
 * The 400 that resolvePropagationServers gives `list` (entries already checked by parseServerEntry) before any name
 * is resolved: the first entry written as an IP address that the policy refuses. It is the route's answer whenever
 * one is refused, as those refusals settle before any name's resolution does.
 */
export function addressedServersProblem(list: readonly string[], policy: AddressPolicy): string | null {
  for (const [index, entry] of list.entries()) {
    const spec = parseServerSpec(entry);
    const problem = spec?.isIp === true ? addressProblem(spec, policy) : null;
    if (problem !== null) return `Invalid propagationServers[${index}]: ${problem}`;
  }
  return null;
}

/**
 * The caller's `propagationServers`, each an IP or a name resolved through the main resolvers.
 * Every address must be public (or inside OUTBOUND_ALLOW_CIDRS), and the port 53 unless the
 * address is inside OUTBOUND_ALLOW_CIDRS: a 400 otherwise, so the service never becomes a way to
 * probe private networks or to aim packets at arbitrary public ports. A name's addresses are not
 * echoed: they may come from an internal zone.
 */
export async function resolvePropagationServers(
  list: readonly string[],
  context: { readonly policy: AddressPolicy; readonly resolver: RequestResolver },
): Promise<PropagationServer[]> {
  const resolved = await Promise.all(
    list.map(async (entry, index): Promise<PropagationServer> => {
      const field = `propagationServers[${index}]`;
      const spec = parseServerEntry(entry, index);
      if (spec.isIp) {
        const problem = addressProblem(spec, context.policy);
        if (problem !== null) throw errors.invalidField(field, problem);
        return { name: entry, address: { host: spec.host, port: spec.port }, location: CUSTOM_LOCATION };
      }
      const [v4, v6] = await Promise.all([
        context.resolver.query(spec.host, 'A'),
        context.resolver.query(spec.host, 'AAAA'),
      ]);
      const addresses = [v4, v6]
        .flatMap((result) => (result.ok ? result.records : []))
        .flatMap((record) => (record.type === 'A' || record.type === 'AAAA' ? [record.address] : []));
      if (addresses.length === 0) throw errors.invalidField(field, `${spec.host} does not resolve`);
      if (!addresses.every((address) => context.policy.isAllowed(address)))
        throw errors.invalidField(field, `${spec.host} resolves to a non-public address`);
      if (spec.port !== DNS_PORT && !addresses.every((address) => context.policy.isExempt(address)))
        throw errors.invalidField(field, PORT_RULE);
      return { name: entry, address: { host: addresses[0] as string, port: spec.port }, location: CUSTOM_LOCATION };
    }),
  );
  const byName = new Map(resolved.map((server) => [server.name, server]));
  return [...byName.values()];
}

export interface ServerAnswer {
  readonly records: DnsRecord[];
  readonly responseTime: number;
  readonly error?: string;
  readonly location: string;
  /** Whether this server gives the main lookup's answer (records compared without TTLs). */
  readonly matches: boolean;
}

export interface PropagationResult {
  readonly domain: string;
  readonly recordType: RecordType;
  readonly timestamp: string;
  readonly servers: Record<string, ServerAnswer>;
  readonly isPropagated: boolean;
  readonly consistencyPercentage: number;
}

/** What an answer says, for comparison: its records, or "does not exist"; null for no answer at all. */
function signature(result: QueryResult): string | null {
  if (result.ok) return answerSignature(result.records);
  return result.failure === 'NXDOMAIN' ? 'NXDOMAIN' : null;
}

/** The share of servers (0..100, two decimals) whose answer matches the main lookup's. */
export function consistency(matches: readonly boolean[]): number {
  if (matches.length === 0) return 0;
  return Math.round((matches.filter(Boolean).length / matches.length) * 10_000) / 100;
}

export async function checkPropagation(input: {
  readonly resolver: RequestResolver;
  readonly domain: string;
  readonly name: string;
  readonly recordType: RecordType;
  readonly main: QueryResult;
  readonly servers: readonly PropagationServer[];
  readonly now: () => number;
  /** What of a server's records may be shown (the comparison uses them all). */
  readonly show?: (records: DnsRecord[]) => DnsRecord[];
}): Promise<PropagationResult> {
  const expected = signature(input.main);
  const answers = await Promise.all(
    input.servers.map((server) => input.resolver.query(input.name, input.recordType, [server.address])),
  );
  const servers: Record<string, ServerAnswer> = {};
  const matches: boolean[] = [];
  input.servers.forEach((server, index) => {
    const result = answers[index] as QueryResult;
    const own = signature(result);
    const match = expected !== null && own === expected;
    matches.push(match);
    servers[server.name] = {
      records: result.ok ? (input.show?.(result.records) ?? result.records) : [],
      responseTime: result.elapsedMs,
      ...(result.ok ? {} : { error: result.failure }),
      location: server.location,
      matches: match,
    };
  });
  const percentage = consistency(matches);
  return {
    domain: input.domain,
    recordType: input.recordType,
    timestamp: new Date(input.now()).toISOString(),
    servers,
    isPropagated: matches.length > 0 && percentage === 100,
    consistencyPercentage: percentage,
  };
}
