import ipaddr from 'ipaddr.js';

/** Longer than any written form of an IP address (with a zone): anything longer is not one, and is not parsed. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The key the token-creation rate limit counts under. An IPv6 client holds a whole /64 (a home or a
 * server usually gets one), so it is keyed by that prefix, `2001:db8:1:2::/64`; an IPv4 client (also
 * when written IPv4-mapped, `::ffff:192.0.2.1`) by its address. Anything else is kept as given, cut.
 */
export function creationKey(address: string): string {
  const cut = address.slice(0, MAX_ADDRESS_LENGTH);
  const zone = cut.indexOf('%');
  const bare = zone === -1 ? cut : cut.slice(0, zone);
  if (!ipaddr.isValid(bare)) return cut;
  const parsed = ipaddr.process(bare); // IPv4-mapped IPv6 → IPv4
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts;
  const prefix = new ipaddr.IPv6([parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 0, 0, 0, 0, 0]);
  return `${prefix.toString()}/64`;
}
