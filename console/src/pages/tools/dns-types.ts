/**
 * POST /dns-lookup's answer as the console reads it (docs/contract.md#dns-lookup): the SDK's generated OpenAPI types
 * (console/src/api-types.ts), narrowed per record type, so a change to the service's DNS schema fails the console's
 * typecheck here instead of drifting from a hand-kept copy.
 */
import type { OkBody } from '../../api-types.js';

export type DnsAnswer = OkBody<'dnsLookup'>;
export type DomainResult = DnsAnswer['results'][number];
export type LookupResult = DomainResult['lookupResult'];
export type PropagationResult = NonNullable<DomainResult['propagationResults']>[number];
export type ServerAnswer = PropagationResult['servers'][string];

/** The record types the service looks up, as its schema names them. */
export type RecordType = DnsAnswer['summary']['recordTypes'][number];
/** One record of type `T`, in the shape the schema gives that type. */
export type DnsRecordOf<T extends RecordType> = NonNullable<LookupResult['records'][T]>[number];
export type DnsRecord = DnsRecordOf<RecordType>;

/** The list as given, when it names every record type of the schema: one the schema adds fails to compile here. */
function allRecordTypes<const L extends readonly RecordType[]>(
  list: L & ([Exclude<RecordType, L[number]>] extends [never] ? unknown : 'a record type is missing'),
): L {
  return list;
}

/** Every record type, in the form's order. */
export const RECORD_TYPES = allRecordTypes(['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV']);

/** The service's defaults (docs/contract.md#dns-lookup). */
export const DEFAULT_RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'];

/** The records of one type in a lookup, typed as that type's (none when the type is absent). */
export function recordsOf<T extends RecordType>(lookup: LookupResult, type: T): readonly DnsRecordOf<T>[] {
  const records: LookupResult['records'][T] = lookup.records[type];
  return records ?? [];
}

/** A column of a record table: a field of that record type's schema (its `type` is the table's caption). */
interface Column<T extends RecordType = RecordType> {
  readonly label: string;
  readonly field: Exclude<keyof DnsRecordOf<T>, 'type'> & string;
  readonly numeric?: boolean;
}

const TTL = { label: 'TTL (s)', field: 'ttl', numeric: true } as const;
const VALUE = [{ label: 'Value', field: 'value' }, TTL] as const;

/** The columns of each record type's table, in reading order; every type has its own, each field its schema's. */
export const RECORD_COLUMNS: { readonly [T in RecordType]: readonly Column<T>[] } = {
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

/** A record's fields by name: every record type's shape reads as one (a propagation answer's records are no more). */
type Fields = Readonly<Record<string, unknown>>;

/** The columns of a type's table, read by field name. */
export const columnsOf = (type: RecordType): readonly { label: string; field: string; numeric?: boolean }[] =>
  RECORD_COLUMNS[type];

/** One cell: the record's field as text. */
export const cellText = (record: Fields, field: string): string => fieldText(record[field]);

/** A field as text: TXT strings joined (DNS splits long ones into 255-byte pieces), absent as empty. */
export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((item: unknown) => fieldText(item)).join('');
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** One record of `type` in a line, for the propagation table: "10 mx.example.com", "192.0.2.1". */
export function recordText(type: RecordType, record: Fields): string {
  return columnsOf(type)
    .filter((column) => column.field !== 'ttl')
    .map((column) => cellText(record, column.field))
    .join(' ');
}
