import type { Server, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { BucketRule } from '../../lib/rate-buckets.js';

/** The listener's own limits against one client, or many, holding its resources (security review, point 8). */

/** Simultaneous connections from one client (an IPv4 address, an IPv6 /64); more are refused with 421 at connect. */
export const MAX_CONNECTIONS_PER_ADDRESS = 10;

/** Bytes held at once by the spools of SMTP messages (arriving, or waiting to be parsed); DATA beyond it gets 452. */
export const SPOOL_BUDGET_BYTES = 256 * 1024 * 1024;

/**
 * Messages of one client received and parsed in full, then neither delivered nor charged: a wallet short of the
 * attachment price (known only once parsed), a repeat of a message already delivered, a message that cannot be
 * parsed. Up to 30 MB of work each that nobody pays for: a client gets a burst of them, then a few a minute; past
 * that its transactions are refused at MAIL FROM, before any DATA, until it has earned one back.
 */
export const UNPAID_MESSAGES: BucketRule = { perMinute: 6, burst: 10, maxKeys: 10_000 };

/**
 * The reply to MAIL FROM of a client past UNPAID_MESSAGES: 450, temporary, so the sender keeps its message and
 * retries (smtp-server renders it `450 4.2.1`).
 */
export const TOO_MANY_UNPAID = 'Too many messages from your address were not delivered, try again later';

/** The reply text of a connection over its address's limit (smtp-server adds no enhanced code at connect). */
export const TOO_MANY_CONNECTIONS = '4.7.0 Too many connections from your address';

/**
 * Whom a connection counts against: an IPv4 address (IPv4-mapped IPv6 included), or the /64 of an IPv6
 * address, since one IPv6 subscriber usually holds a whole /64 and could otherwise open 10 per address.
 */
export function clientKey(address: string): string {
  const zoneless = address.split('%', 1)[0] ?? '';
  if (!ipaddr.isValid(zoneless)) return address;
  const parsed = ipaddr.process(zoneless); // IPv4-mapped IPv6 becomes IPv4
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/**
 * Open TCP connections per client, counted as the server accepts them and released when they close, so
 * every socket is counted once whatever happens to its SMTP session (refused, timed out, reset).
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => this.track(socket));
  }

  countOf(address: string): number {
    return this.open.get(clientKey(address)) ?? 0;
  }

  private track(socket: Socket): void {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const key = clientKey(address);
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    socket.once('close', () => {
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    });
  }
}
