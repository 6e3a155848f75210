import type { Command } from '../command.js';
import { invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { fields, table } from '../output.js';
import { withProgress } from '../progress.js';
import type { DnsLookupRequest, DnsLookupResult, UrlMetadataRequest } from '../../types.js';

type RecordType = NonNullable<DnsLookupRequest['recordTypes']>[number];
const RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV'];

function recordText(record: Readonly<Record<string, unknown>>): string {
  const { type: _type, ttl: _ttl, ...rest } = record;
  return Object.values(rest)
    .map((value) => (Array.isArray(value) ? value.join(' ') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)))
    .join(' ');
}

function dnsTable(result: DnsLookupResult): string {
  const rows: (string | number | undefined)[][] = [];
  for (const item of result.results) {
    const records = (item.lookupResult as { records?: Record<string, Record<string, unknown>[]> }).records ?? {};
    for (const [type, list] of Object.entries(records))
      for (const record of list) rows.push([item.domain, type, record.ttl as number | undefined, recordText(record)]);
  }
  return table(['DOMAIN', 'TYPE', 'TTL', 'VALUE'], rows);
}

export const dnsCommand: Command = {
  summary: 'DNS lookup of one or more domains or IPs',
  usage: 'coinop dns <domain>… [--types A,MX,…] [--propagation] [--enrich] [--ssl]',
  async run(args) {
    const call = invocation(args, {
      types: { type: 'string' },
      propagation: { type: 'boolean', default: false },
      enrich: { type: 'boolean', default: false },
      ssl: { type: 'boolean', default: false },
    });
    required(call.positionals, 0, 'domain');
    const recordTypes = call.values.types?.split(',').map((type) => type.trim().toUpperCase());
    const unknown = recordTypes?.find((type) => !RECORD_TYPES.includes(type as RecordType));
    if (unknown !== undefined) throw new UsageError(`unknown record type ${unknown}: one of ${RECORD_TYPES.join(', ')}`);
    const request: DnsLookupRequest = {
      domains: call.positionals,
      ...(recordTypes === undefined ? {} : { recordTypes: recordTypes as RecordType[] }),
      ...(call.values.propagation === true ? { checkPropagation: true } : {}),
      ...(call.values.enrich === true ? { enableEnrichment: true } : {}),
      ...(call.values.ssl === true ? { enableSslInspection: true } : {}),
    };
    const result = await withProgress('looking up', call.client().dnsLookup(request));
    call.out.result(result.data, result, () => dnsTable(result.data));
  },
};

type SummaryLevel = NonNullable<UrlMetadataRequest['aiSummary']>;
const SUMMARY_LEVELS: readonly SummaryLevel[] = ['none', 'short', 'medium', 'long'];

export const metaCommand: Command = {
  summary: "a URL's metadata, with an optional AI summary",
  usage: 'coinop meta <url> [--summary none|short|medium|long]',
  async run(args) {
    const call = invocation(args, { summary: { type: 'string' } });
    const url = required(call.positionals, 0, 'url');
    const summary = call.values.summary;
    if (summary !== undefined && !SUMMARY_LEVELS.includes(summary as SummaryLevel)) throw new UsageError(`--summary is one of ${SUMMARY_LEVELS.join(', ')}`);
    const request: UrlMetadataRequest = { url, ...(summary === undefined ? {} : { aiSummary: summary as SummaryLevel }) };
    const result = await withProgress('fetching', call.client().urlMetadata(request));
    call.out.result(result.data, result, () => fields(result.data.data as Record<string, unknown>));
  },
};

export const ipCommand: Command = {
  summary: 'your IP address and where it is',
  usage: 'coinop ip',
  async run(args) {
    const call = invocation(args, {});
    const result = await call.client().myIp();
    call.out.result(result.data, result, () => fields(result.data as Record<string, unknown>));
  },
};
