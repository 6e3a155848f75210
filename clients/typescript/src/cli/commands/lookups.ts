import type { Command } from '../command.js';
import { invocation, required } from '../command.js';
import { CommandFailed, EXIT, UsageError } from '../exit-codes.js';
import { fields, table } from '../output.js';
import { withProgress } from '../progress.js';
import { price, priced } from '../price.js';
import type { DnsLookupRequest, DnsLookupResult, UrlMetadataRequest } from '../../types.js';

type RecordType = NonNullable<DnsLookupRequest['recordTypes']>[number];
const RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'NS', 'PTR', 'SOA', 'CAA', 'SRV'];

function recordText(record: Readonly<Record<string, unknown>>): string {
  const { type: _type, ttl: _ttl, ...rest } = record;
  return Object.values(rest)
    .map((value) =>
      Array.isArray(value)
        ? value.join(' ')
        : typeof value === 'object' && value !== null
          ? JSON.stringify(value)
          : String(value),
    )
    .join(' ');
}

type Row = (string | number | undefined)[];

function recordRows(item: DnsLookupResult['results'][number]): Row[] {
  const records = (item.lookupResult as { records?: Record<string, Record<string, unknown>[]> }).records ?? {};
  return Object.entries(records).flatMap(([type, list]) =>
    list.map((record) => [item.domain, type, record.ttl as number | undefined, recordText(record)]),
  );
}

/** NXDOMAIN is an answer (the name does not exist); TIMEOUT, UNREACHABLE, SERVFAIL… mean nobody answered that question. */
const NO_SUCH_NAME = 'NXDOMAIN';

/** Record types nobody answered, per domain, and the domains left with no record because of them (an empty table would lie). */
function unanswered(result: DnsLookupResult): { lines: string[]; silentDomains: string[] } {
  const lines: string[] = [];
  const silentDomains: string[] = [];
  for (const item of result.results) {
    const errors = Object.entries(item.lookupResult.errors ?? {});
    const failed = errors.filter(([, error]) => error !== NO_SUCH_NAME);
    if (errors.some(([, error]) => error === NO_SUCH_NAME)) lines.push(`${item.domain}: no such domain (NXDOMAIN)`);
    if (failed.length > 0)
      lines.push(`${item.domain}: not answered: ${failed.map(([type, error]) => `${type} ${error}`).join(', ')}`);
    if (failed.length > 0 && recordRows(item).length === 0) silentDomains.push(item.domain);
  }
  return { lines, silentDomains };
}

function dnsTable(result: DnsLookupResult): string {
  const rows = result.results.flatMap(recordRows);
  return rows.length === 0 ? '(no records)' : table(['DOMAIN', 'TYPE', 'TTL', 'VALUE'], rows);
}

export const dnsCommand: Command = {
  summary: `DNS lookup of one or more domains or IPs (${price('dnsLookup')})`,
  // E-mail security enrichment and TLS inspection are on unless turned off, as in the service.
  usage: priced('coinop dns <domain>… [--types A,MX,…] [--propagation] [--no-enrich] [--no-ssl]', price('dnsLookup')),
  async run(args) {
    const call = invocation(args, {
      types: { type: 'string' },
      propagation: { type: 'boolean', default: false },
      'no-enrich': { type: 'boolean', default: false },
      'no-ssl': { type: 'boolean', default: false },
    });
    required(call.positionals, 0, 'domain');
    const recordTypes = call.values.types?.split(',').map((type) => type.trim().toUpperCase());
    const unknown = recordTypes?.find((type) => !RECORD_TYPES.includes(type as RecordType));
    if (unknown !== undefined)
      throw new UsageError(`unknown record type ${unknown}: one of ${RECORD_TYPES.join(', ')}`);
    const request: DnsLookupRequest = {
      domains: call.positionals,
      ...(recordTypes === undefined ? {} : { recordTypes: recordTypes as RecordType[] }),
      ...(call.values.propagation === true ? { checkPropagation: true } : {}),
      ...(call.values['no-enrich'] === true ? { enableEnrichment: false } : {}),
      ...(call.values['no-ssl'] === true ? { enableSslInspection: false } : {}),
    };
    const result = await withProgress('looking up', call.client().dnsLookup(request));
    const { lines, silentDomains } = unanswered(result.data);
    call.out.result(result.data, result, () => dnsTable(result.data));
    if (!call.out.json) for (const line of lines) call.out.note(line);
    // A lookup nobody answered is a failure, not an empty result: scripts see it in the exit status.
    if (silentDomains.length > 0)
      throw new CommandFailed(
        `the DNS servers answered nothing for ${silentDomains.join(', ')}: the lookup was still charged (${result.cost} credits, as every answered lookup is)`,
        EXIT.serverOrNetwork,
      );
  },
};

type SummaryLevel = NonNullable<UrlMetadataRequest['aiSummary']>;
const SUMMARY_LEVELS: readonly SummaryLevel[] = ['none', 'short', 'medium', 'long'];

/** The summary levels but `none` are priced alike (the service's x-cost: `55, or 800 with aiSummary short, medium or long`). */
const metaPrice = `${price('urlMetadata')}, ${price('urlMetadata', { aiSummary: 'short' })} with --summary ${SUMMARY_LEVELS.filter((level) => level !== 'none').join('|')}`;

export const metaCommand: Command = {
  summary: `a URL's metadata, with an optional AI summary (${metaPrice})`,
  usage: priced('coinop meta <url> [--summary none|short|medium|long]', metaPrice),
  async run(args) {
    const call = invocation(args, { summary: { type: 'string' } });
    call.only('meta', 1, ['summary']);
    const url = required(call.positionals, 0, 'url');
    const summary = call.values.summary;
    if (summary !== undefined && !SUMMARY_LEVELS.includes(summary as SummaryLevel))
      throw new UsageError(`--summary is one of ${SUMMARY_LEVELS.join(', ')}`);
    const request: UrlMetadataRequest = {
      url,
      ...(summary === undefined ? {} : { aiSummary: summary as SummaryLevel }),
    };
    const result = await withProgress('fetching', call.client().urlMetadata(request));
    call.out.result(result.data, result, () => fields(result.data.data as Record<string, unknown>));
  },
};

export const ipCommand: Command = {
  summary: `your IP address and where it is (${price('myIp')})`,
  usage: priced('coinop ip', price('myIp')),
  async run(args) {
    const call = invocation(args, {});
    call.only('ip', 0);
    const result = await call.client().myIp();
    call.out.result(result.data, result, () => fields(result.data as Record<string, unknown>));
  },
};
