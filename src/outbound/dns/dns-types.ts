/**
 * What the DNS wire client asks and answers: record types and record shapes of docs/contract.md#dns-lookup.
 * Every record carries `type` and `ttl` (seconds, as the answering server gave it).
 */
export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface AddressRecord {
  readonly type: 'A' | 'AAAA';
  readonly address: string;
  readonly ttl: number;
}
export interface MxRecord {
  readonly type: 'MX';
  readonly exchange: string;
  readonly priority: number;
  readonly ttl: number;
}
export interface TxtRecord {
  readonly type: 'TXT';
  readonly entries: string[];
  readonly ttl: number;
}
export interface NameRecord {
  readonly type: 'CNAME' | 'NS' | 'PTR';
  readonly value: string;
  readonly ttl: number;
}
export interface SoaRecord {
  readonly type: 'SOA';
  readonly nsname: string;
  readonly hostmaster: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minttl: number;
  readonly ttl: number;
}
export interface CaaRecord {
  readonly type: 'CAA';
  readonly flags: number;
  readonly tag: string;
  readonly value: string;
  readonly ttl: number;
}
export interface SrvRecord {
  readonly type: 'SRV';
  readonly priority: number;
  readonly weight: number;
  readonly port: number;
  readonly target: string;
  readonly ttl: number;
}
export type DnsRecord = AddressRecord | MxRecord | TxtRecord | NameRecord | SoaRecord | CaaRecord | SrvRecord;

/**
 * Why a query produced no answer, as shown in `lookupResult.errors` (`{ "MX": "NXDOMAIN" }`).
 * Response codes are the server's; TIMEOUT (also: the request deadline passed), UNREACHABLE (socket
 * error, e.g. ICMP port unreachable), BAD_RESPONSE (undecodable or mismatched), CNAME_LOOP,
 * PACKET_LIMIT (the request spent its packets) and NON_PUBLIC_ADDRESS (a reverse name of an address
 * outside public space, not asked) are ours.
 */
export type QueryFailure =
  | 'NXDOMAIN'
  | 'SERVFAIL'
  | 'REFUSED'
  | 'FORMERR'
  | 'NOTIMP'
  | 'TIMEOUT'
  | 'UNREACHABLE'
  | 'BAD_RESPONSE'
  | 'CNAME_LOOP'
  | 'PACKET_LIMIT'
  | 'NON_PUBLIC_ADDRESS'
  | 'OTHER';

/** The request-wide limits every query of one request shares (request-budget.ts). */
export interface QueryBudget {
  /** Milliseconds left before the request deadline; 0 once it passed. */
  remainingMs(): number;
  /** Counts one packet (a UDP or TCP query, a TLS probe); false once the request has spent them all. */
  takePacket(): boolean;
}

/** Per-query limits of the request (docs/contract.md#dns-lookup: timeout, maxRetries, retryDelay). */
export interface QueryOptions {
  /** Milliseconds one try may take (UDP, and the TCP retry of a truncated answer). */
  readonly timeoutMs: number;
  /** Tries after the first one. */
  readonly maxRetries: number;
  /** Milliseconds between two tries. */
  readonly retryDelayMs: number;
  /** The request's overall deadline and packet cap; absent: only the limits above. */
  readonly budget?: QueryBudget;
}

/** A resolver to ask: an IP literal and a port. */
export interface ServerAddress {
  readonly host: string;
  readonly port: number;
}
