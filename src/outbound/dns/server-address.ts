import { getServers } from 'node:dns';
import type { ServerAddress } from './dns-types.js';
import { parseServerSpec } from '../../lib/server-spec.js';

/** DNS_SERVERS entries (validated by config), or the system's resolvers when the list is empty. */
export function resolverAddresses(configured: readonly string[]): ServerAddress[] {
  const source = configured.length > 0 ? configured : getServers();
  const out: ServerAddress[] = [];
  for (const entry of source) {
    const spec = parseServerSpec(entry);
    if (spec !== null && spec.isIp) out.push({ host: spec.host, port: spec.port });
  }
  return out;
}
