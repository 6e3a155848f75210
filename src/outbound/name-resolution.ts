import { lookup } from 'node:dns/promises';
import { Resolver } from 'node:dns/promises';

export type NameLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

/**
 * How outbound connections resolve names: the system resolver, or the DNS_SERVERS list when set
 * (so an operator can point the service at its own resolvers, and tests at a loopback DNS server).
 */
export function createNameLookup(dnsServers: readonly string[]): NameLookup {
  const configured = configuredLookup(dnsServers);
  // RFC 6761: localhost names are loopback without asking anyone.
  return async (hostname) => (/^(.+\.)?localhost\.?$/i.test(hostname) ? LOOPBACK : configured(hostname));
}

const LOOPBACK = [
  { address: '127.0.0.1', family: 4 as const },
  { address: '::1', family: 6 as const },
];

function configuredLookup(dnsServers: readonly string[]): NameLookup {
  if (dnsServers.length === 0) {
    return async (hostname) =>
      (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
        address: a.address,
        family: a.family === 6 ? 6 : 4,
      }));
  }
  const resolver = new Resolver({ timeout: 5000, tries: 2 });
  resolver.setServers([...dnsServers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (found.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
}
