/** The shapes of POST /dns-lookup's answer the console reads (docs/contract.md#dns-lookup); all else is optional. */

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** The service's defaults (docs/contract.md#dns-lookup). */
export const DEFAULT_RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'];

export interface DnsRecord {
  readonly type: string;
  readonly ttl?: number;
  readonly [field: string]: unknown;
}

export interface LookupResult {
  readonly domain: string;
  readonly timestamp: string;
  readonly records: Readonly<Record<string, readonly DnsRecord[] | undefined>>;
  readonly errors?: Readonly<Record<string, string>>;
  readonly reverseLookup?: { readonly hostnames: readonly string[]; readonly responseTime: number };
  readonly mx_provider?: string | null;
  readonly spf_valid?: boolean;
  readonly spf_strict?: boolean;
  readonly dmarc_policy?: string;
  readonly has_dkim?: boolean;
  readonly email_security_score?: number;
  readonly ssl_certificate_expires_at?: string;
  readonly ssl_days_until_expiry?: number;
  readonly ssl_issuer?: string;
  readonly ssl_subject_alt_names?: readonly string[];
  readonly ssl_chain_valid?: boolean;
  readonly ssl_error?: string;
  readonly warnings?: readonly string[];
  readonly recommendations?: readonly string[];
  readonly metadata?: { readonly queryTime: number; readonly totalRecords: number };
}

export interface ServerAnswer {
  readonly records: readonly DnsRecord[];
  readonly responseTime: number;
  readonly error?: string;
  readonly location?: string;
  readonly matches?: boolean;
}

export interface PropagationResult {
  readonly domain: string;
  readonly recordType: string;
  readonly timestamp: string;
  readonly servers: Readonly<Record<string, ServerAnswer>>;
  readonly isPropagated: boolean;
  readonly consistencyPercentage: number;
}

export interface DomainResult {
  readonly domain: string;
  readonly lookupResult: LookupResult;
  readonly propagationResults?: readonly PropagationResult[];
}

export interface DnsAnswer {
  readonly summary: {
    readonly totalDomains: number;
    readonly successfulLookups: number;
    readonly failedLookups: number;
    readonly recordTypes: readonly string[];
    readonly propagationCheckEnabled: boolean;
  };
  readonly results: readonly DomainResult[];
}

interface Column {
  readonly label: string;
  readonly field: string;
  readonly numeric?: boolean;
}

const TTL: Column = { label: 'TTL (s)', field: 'ttl', numeric: true };
const VALUE: readonly Column[] = [{ label: 'Value', field: 'value' }, TTL];

/** The columns of each record type's table, in reading order. */
export const RECORD_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  A: [{ label: 'Address', field: 'address' }, TTL],
  AAAA: [{ label: 'Address', field: 'address' }, TTL],
  MX: [{ label: 'Priority', field: 'priority', numeric: true }, { label: 'Mail server', field: 'exchange' }, TTL],
  TXT: [{ label: 'Text', field: 'entries' }, TTL],
  CNAME: VALUE,
  NS: VALUE,
  PTR: VALUE,
  SOA: [
    { label: 'Primary server', field: 'nsname' },
    { label: 'Hostmaster', field: 'hostmaster' },
    { label: 'Serial', field: 'serial', numeric: true },
    { label: 'Refresh', field: 'refresh', numeric: true },
    { label: 'Retry', field: 'retry', numeric: true },
    { label: 'Expire', field: 'expire', numeric: true },
    { label: 'Min TTL', field: 'minttl', numeric: true },
    TTL,
  ],
  CAA: [
    { label: 'Flags', field: 'flags', numeric: true },
    { label: 'Tag', field: 'tag' },
    { label: 'Value', field: 'value' },
    TTL,
  ],
  SRV: [
    { label: 'Priority', field: 'priority', numeric: true },
    { label: 'Weight', field: 'weight', numeric: true },
    { label: 'Port', field: 'port', numeric: true },
    { label: 'Target', field: 'target' },
    TTL,
  ],
};

/** A field as text: TXT strings joined (DNS splits long ones into 255-byte pieces), absent as empty. */
export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((item: unknown) => fieldText(item)).join('');
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** One record in a line, for the propagation table: "10 mx.example.com", "192.0.2.1". */
export function recordText(record: DnsRecord): string {
  const columns = RECORD_COLUMNS[record.type];
  if (columns === undefined) return JSON.stringify(record);
  return columns
    .filter((column) => column.field !== 'ttl')
    .map((column) => fieldText(record[column.field]))
    .join(' ');
}
