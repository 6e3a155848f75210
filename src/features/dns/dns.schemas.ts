import { Type } from '@sinclair/typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { ISODate, Nullable } from '../../http/schemas.js';
import { RECORD_TYPES } from '../../outbound/dns/dns-types.js';
import { REQUEST_DEADLINE_MS } from './request-budget.js';
import { MAX_NAME_LENGTH } from './names.js';
import {
  MAX_DOMAINS,
  MAX_PROPAGATION_SERVERS,
  RETRIES_RANGE,
  RETRY_DELAY_RANGE,
  TIMEOUT_RANGE,
} from './request-limits.js';

/**
 * Request and response schemas of POST /dns-lookup (docs/contract.md#dns-lookup).
 * OpenAPI 3.0 knows neither `const` nor `patternProperties`, so literals are one-value enums and
 * maps use `additionalProperties`.
 */

const OneOf = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
const StringMap = (description: string) =>
  Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description });
const OpenObject = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });
const range = (r: { min: number; max: number; default: number }, description: string) =>
  Type.Integer({
    minimum: r.min,
    maximum: r.max,
    default: r.default,
    'x-error': `must be an integer from ${r.min} to ${r.max}`,
    description,
  });

const RecordTypeName = OneOf(RECORD_TYPES, { 'x-error': `must be one of ${RECORD_TYPES.join(', ')}` });

export const DnsLookupBody = Type.Object(
  {
    domains: Type.Array(
      Type.String({
        minLength: 1,
        // 253 characters and the root's final dot (`example.com.`); the name itself is held to 253 by names.ts.
        maxLength: MAX_NAME_LENGTH + 1,
        'x-error': 'must be a domain name or IP address of 1 to 253 characters (254 with a final dot)',
      }),
      {
        minItems: 1,
        maxItems: MAX_DOMAINS,
        'x-error': `must list 1 to ${MAX_DOMAINS} domain names or IP addresses`,
        description: `1 to ${MAX_DOMAINS} domain names (international names allowed) or IP addresses (looked up as PTR); duplicates are looked up once`,
      },
    ),
    recordTypes: Type.Optional(
      Type.Array(RecordTypeName, {
        minItems: 1,
        maxItems: 20,
        'x-error': 'must list 1 or more record types',
        description: 'Default A, AAAA, MX, TXT, NS, CNAME',
      }),
    ),
    checkPropagation: Type.Optional(
      Type.Boolean({ default: false, description: 'Ask several public resolvers and compare their answers' }),
    ),
    propagationServers: Type.Optional(
      Type.Array(
        Type.String({
          minLength: 1,
          maxLength: 261,
          'x-error': 'must be an IP address or host name, optionally with :port',
        }),
        {
          maxItems: MAX_PROPAGATION_SERVERS,
          'x-error': `must be a list of at most ${MAX_PROPAGATION_SERVERS} servers`,
          description:
            'Replaces the default resolvers; public addresses on port 53 only (private, loopback, link-local addresses and other ports are refused)',
        },
      ),
    ),
    performReverseLookup: Type.Optional(
      Type.Boolean({ default: true, description: 'PTR lookups for returned addresses' }),
    ),
    enableEnrichment: Type.Optional(
      Type.Boolean({ default: true, description: 'MX provider, SPF, DMARC, DKIM and an e-mail security score' }),
    ),
    enableSslInspection: Type.Optional(Type.Boolean({ default: true, description: 'TLS certificate of port 443' })),
    timeout: Type.Optional(
      range(TIMEOUT_RANGE, `Milliseconds per query try (the whole request ends after ${REQUEST_DEADLINE_MS / 1000} s)`),
    ),
    maxRetries: Type.Optional(range(RETRIES_RANGE, 'Tries after the first one')),
    retryDelay: Type.Optional(range(RETRY_DELAY_RANGE, 'Milliseconds between tries')),
    includeMetadata: Type.Optional(Type.Boolean({ default: false, description: 'Add queryTime and totalRecords' })),
  },
  { additionalProperties: false },
);
export type DnsLookupBody = Static<typeof DnsLookupBody>;

const ttl = Type.Integer({ description: 'Seconds, as the answering server gave it' });
const record = <P extends Record<string, TSchema>>(type: string, properties: P) =>
  Type.Object({ type: OneOf([type]), ...properties, ttl });
const NameValue = (type: string) => record(type, { value: Type.String() });

const Records = Type.Object(
  {
    A: Type.Optional(Type.Array(record('A', { address: Type.String() }))),
    AAAA: Type.Optional(Type.Array(record('AAAA', { address: Type.String() }))),
    MX: Type.Optional(Type.Array(record('MX', { exchange: Type.String(), priority: Type.Integer() }))),
    CNAME: Type.Optional(Type.Array(NameValue('CNAME'))),
    TXT: Type.Optional(Type.Array(record('TXT', { entries: Type.Array(Type.String()) }))),
    NS: Type.Optional(Type.Array(NameValue('NS'))),
    PTR: Type.Optional(Type.Array(NameValue('PTR'))),
    SOA: Type.Optional(
      Type.Array(
        record('SOA', {
          nsname: Type.String(),
          hostmaster: Type.String(),
          serial: Type.Integer(),
          refresh: Type.Integer(),
          retry: Type.Integer(),
          expire: Type.Integer(),
          minttl: Type.Integer(),
        }),
      ),
    ),
    CAA: Type.Optional(Type.Array(record('CAA', { flags: Type.Integer(), tag: Type.String(), value: Type.String() }))),
    SRV: Type.Optional(
      Type.Array(
        record('SRV', {
          priority: Type.Integer(),
          weight: Type.Integer(),
          port: Type.Integer(),
          target: Type.String(),
        }),
      ),
    ),
  },
  { description: 'Records grouped by type; a type with no records is absent' },
);

const LookupResult = Type.Object({
  domain: Type.String({ description: 'The name queried (punycode), or the IP address' }),
  timestamp: ISODate,
  records: Records,
  errors: Type.Optional(
    StringMap(
      `Per record type, why the query failed: NXDOMAIN, SERVFAIL, REFUSED, TIMEOUT (also at the ${REQUEST_DEADLINE_MS / 1000} s request deadline), UNREACHABLE, PACKET_LIMIT, NON_PUBLIC_ADDRESS, …`,
    ),
  ),
  reverseLookup: Type.Optional(
    Type.Object({
      hostnames: Type.Array(Type.String()),
      responseTime: Type.Integer({ description: 'Milliseconds spent in PTR lookups' }),
    }),
  ),
  mx_provider: Type.Optional(Nullable(Type.String({ description: 'Mail provider recognised from the MX hosts' }))),
  spf_valid: Type.Optional(Type.Boolean()),
  spf_strict: Type.Optional(Type.Boolean()),
  dmarc_policy: Type.Optional(OneOf(['none', 'quarantine', 'reject'])),
  has_dkim: Type.Optional(Type.Boolean()),
  email_security_score: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  ssl_certificate_expires_at: Type.Optional(ISODate),
  ssl_days_until_expiry: Type.Optional(Type.Integer()),
  ssl_issuer: Type.Optional(Type.String()),
  ssl_subject_alt_names: Type.Optional(Type.Array(Type.String())),
  ssl_chain_valid: Type.Optional(Type.Boolean({ description: 'The chain reached a trusted root and covers the name' })),
  ssl_error: Type.Optional(Type.String({ description: 'Why no certificate could be read' })),
  warnings: Type.Optional(Type.Array(Type.String())),
  recommendations: Type.Optional(Type.Array(Type.String())),
  enrichment: Type.Optional(
    OpenObject(
      'Detail behind the enrichment fields: mx, spf, dmarc, dkim; dmarc.organizationalDomain names the domain whose record applies when it is inherited (RFC 7489 6.6.3)',
    ),
  ),
  metadata: Type.Optional(Type.Object({ queryTime: Type.Integer(), totalRecords: Type.Integer() })),
});

const ServerAnswer = Type.Object({
  records: Type.Array(OpenObject('A record, in the shape of its type')),
  responseTime: Type.Integer({ description: 'Milliseconds' }),
  error: Type.Optional(Type.String()),
  location: Type.String({ description: 'Operator and home of the resolver; custom for servers the caller chose' }),
  matches: Type.Boolean({ description: 'Same records as the main lookup (TTLs ignored)' }),
});

const PropagationResult = Type.Object({
  domain: Type.String(),
  recordType: RecordTypeName,
  timestamp: ISODate,
  servers: Type.Unsafe<Record<string, Static<typeof ServerAnswer>>>({
    type: 'object',
    additionalProperties: ServerAnswer,
    description: 'Keyed by server',
  }),
  isPropagated: Type.Boolean({ description: 'Every server matches the main lookup' }),
  consistencyPercentage: Type.Number({ minimum: 0, maximum: 100 }),
});

export const DnsLookupResponse = Type.Object({
  summary: Type.Object({
    totalDomains: Type.Integer(),
    successfulLookups: Type.Integer(),
    failedLookups: Type.Integer(),
    recordTypes: Type.Array(RecordTypeName),
    propagationCheckEnabled: Type.Boolean(),
  }),
  results: Type.Array(
    Type.Object({
      domain: Type.String({ description: 'The domain or IP as requested' }),
      lookupResult: LookupResult,
      propagationResults: Type.Optional(Type.Array(PropagationResult)),
    }),
  ),
});
