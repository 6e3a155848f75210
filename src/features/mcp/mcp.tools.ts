import { Type } from '@sinclair/typebox';
import type { Static, TObject } from '@sinclair/typebox';
import type { HTTPMethods } from 'fastify';
import { badRequestOf } from '../../errors.js';
import {
  KV_BUCKET_COUNT_CAP,
  KvBucketsQuery,
  KvListParams,
  KvListQuery,
  KvParams,
  kvKeyPathProblem,
  kvNameProblem,
  kvPagingProblem,
  KvSetQuery,
  kvValueProblem,
  parseKvTtl,
} from '../kv/index.js';
import { LogsQuery } from '../logs/index.js';
import { DnsLookupBody, lookupInputProblem } from '../dns/index.js';
import type { DnsLookupInput } from '../dns/index.js';
import { MetadataRequest, parsePageUrl, refusedPageAddress } from '../metadata/index.js';
import type { AddressPolicy } from '../../outbound/address-policy.js';
import { WebhookParams } from '../webhooks/index.js';

/** The HTTP call a tool makes: the route's own metering, validation, errors and log entry apply to it unchanged. */
export interface RouteCall {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly payload?: string | Record<string, unknown>;
  readonly contentType?: string;
}

/** What a call sends as its body: every argument as the route's JSON body, or one argument as plain text. */
export type ToolBody = { readonly json: true } | { readonly text: string };

/**
 * The route's own checks past its schema that need no network, run on the arguments as the schema left them (text
 * coerced, defaults filled): the route's 400 wording, or null. They are the route's functions, not copies of them.
 */
export type ToolRules = (args: Record<string, unknown>, service: ToolService) => string | null;

/**
 * What of the instance a tool's rules may ask, as its routes judge before connecting anywhere: its address policy
 * (OUTBOUND_ALLOW_CIDRS), which decides what a page fetch may reach and which DNS servers a lookup may ask.
 */
export interface ToolService {
  readonly addressPolicy: AddressPolicy;
}

export interface McpTool {
  readonly name: string;
  readonly description: string;
  /** The route's own TypeBox schema (JSON Schema), so the tool and the route cannot disagree on the input. */
  readonly inputSchema: TObject;
  readonly method: HTTPMethods;
  /** The route's path; each `:name` segment is filled in from the argument of that name. */
  readonly path: string;
  /** Arguments sent in the query string, when given. */
  readonly query?: readonly string[];
  readonly body?: ToolBody;
  readonly rules?: ToolRules;
}

/** Rules typed by the tool's schema: they are only given arguments that passed it. */
const rulesOf =
  <S extends TObject>(_schema: S, rules: (args: Static<S>) => string | null): ToolRules =>
  (args) =>
    rules(args as Static<S>);

const ttlProblem = (ttl: string | undefined): string | null => {
  const parsed = parseKvTtl(ttl);
  return parsed.ok ? null : parsed.error;
};

const NoInput = Type.Object({}, { additionalProperties: false });
// A tool's arguments are closed, as the routes' bodies are: an unknown one is refused unsent, not ignored and charged.
const KvKeyInput = Type.Object(KvParams.properties, { additionalProperties: false });
const WebhookIdInput = Type.Object(WebhookParams.properties, { additionalProperties: false });
// `limit` and `n` have defaults on the routes, so an agent may leave them out (the listed schema must not require them).
const KvListInput = Type.Object(
  { ...KvListParams.properties, ...KvListQuery.properties, limit: Type.Optional(KvListQuery.properties.limit) },
  { additionalProperties: false },
);
const KvBucketsInput = Type.Object(
  { ...KvBucketsQuery.properties, limit: Type.Optional(KvBucketsQuery.properties.limit) },
  { additionalProperties: false },
);
const LogsInput = Type.Object(
  { ...LogsQuery.properties, n: Type.Optional(LogsQuery.properties.n) },
  { additionalProperties: false },
);
const KvSetInput = Type.Object(
  {
    ...KvParams.properties,
    value: Type.String({ description: 'The value to store (text, at most 1000 characters)' }),
    ...KvSetQuery.properties,
  },
  { additionalProperties: false },
);

/** Each tool and the one HTTP route it calls; costs are the route's (see the descriptions and /openapi.json). */
export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'kv_get',
    description: 'Read a value from the key-value store (GET /kv/{bucket}/{key}; 1 credit).',
    inputSchema: KvKeyInput,
    method: 'GET',
    path: '/kv/:bucket/:key',
    rules: rulesOf(KvParams, ({ bucket, key }) => kvKeyPathProblem(bucket, key)),
  },
  {
    name: 'kv_set',
    description:
      'Store a value under bucket/key, with an optional time to live in seconds (POST /kv/{bucket}/{key}; 1 credit).',
    inputSchema: KvSetInput,
    method: 'POST',
    path: '/kv/:bucket/:key',
    query: ['ttl'],
    body: { text: 'value' },
    // In the route's order: the names, then ttl, then the value.
    rules: rulesOf(
      KvSetInput,
      ({ bucket, key, ttl, value }) => kvKeyPathProblem(bucket, key) ?? ttlProblem(ttl) ?? kvValueProblem(value),
    ),
  },
  {
    name: 'kv_delete',
    description: 'Delete a value from the key-value store (DELETE /kv/{bucket}/{key}; 1 credit).',
    inputSchema: KvKeyInput,
    method: 'DELETE',
    path: '/kv/:bucket/:key',
    rules: rulesOf(KvParams, ({ bucket, key }) => kvKeyPathProblem(bucket, key)),
  },
  {
    name: 'kv_list',
    description:
      "List a bucket's live keys with their expiry and value size in bytes, in byte order, optionally only those starting with prefix; page with cursor = the previous answer's cursor (GET /kv/{bucket}; 1 credit).",
    inputSchema: KvListInput,
    method: 'GET',
    path: '/kv/:bucket',
    query: ['prefix', 'limit', 'cursor'],
    rules: rulesOf(
      KvListInput,
      ({ bucket, prefix = '', cursor }) => kvNameProblem('bucket', bucket) ?? kvPagingProblem(prefix, cursor),
    ),
  },
  {
    name: 'kv_buckets',
    description: `List the wallet's buckets with their live keys and value bytes (each counted up to ${KV_BUCKET_COUNT_CAP} entries, fewer on pages of more than 10 buckets; capped beyond), in byte order, optionally only those starting with prefix; page with cursor (GET /kv; 1 credit).`,
    inputSchema: KvBucketsInput,
    method: 'GET',
    path: '/kv',
    query: ['prefix', 'limit', 'cursor'],
    rules: rulesOf(KvBucketsInput, ({ prefix = '', cursor }) => kvPagingProblem(prefix, cursor)),
  },
  {
    name: 'dns_lookup',
    description:
      'Look up DNS records of up to 10 domains or IP addresses, with optional propagation check and e-mail security enrichment (POST /dns-lookup; 5 credits).',
    inputSchema: DnsLookupBody,
    method: 'POST',
    path: '/dns-lookup',
    body: { json: true },
    // The schema has filled every default the lookup reads (Ajv useDefaults), as for the route. The servers written
    // as IP addresses are judged by the instance's policy: its OUTBOUND_ALLOW_CIDRS decide which ports are open.
    rules: (args, service) => lookupInputProblem(args as unknown as DnsLookupInput, service.addressPolicy),
  },
  {
    name: 'url_metadata',
    description:
      'Fetch a public web page and extract its metadata (SEO, social, technical), optionally with an AI summary (POST /url-to-metadata; 55 credits, 800 with a summary).',
    inputSchema: MetadataRequest,
    method: 'POST',
    path: '/url-to-metadata',
    body: { json: true },
    rules: (args, service) => {
      let page: URL | undefined;
      const problem = badRequestOf(() => (page = parsePageUrl(String(args.url))));
      return page === undefined ? problem : refusedPageAddress(page, service.addressPolicy);
    },
  },
  {
    name: 'my_ip',
    description: 'The IP address this MCP client connects from, with its country (GET /myip; 1 credit).',
    inputSchema: NoInput,
    method: 'GET',
    path: '/myip',
  },
  {
    name: 'webhook_list',
    description: "List the wallet's webhooks (GET /webhook; 1 credit).",
    inputSchema: NoInput,
    method: 'GET',
    path: '/webhook',
  },
  {
    name: 'webhook_test',
    description:
      "Send a webhook its mode's test payload and report the receiver's answer (POST /webhook/{webhookId}/test; 1 credit).",
    inputSchema: WebhookIdInput,
    method: 'POST',
    path: '/webhook/:webhookId/test',
  },
  {
    name: 'balance',
    description: "The token's wallet: its balance in credits and when it was created (GET /token; 1 credit).",
    inputSchema: NoInput,
    method: 'GET',
    path: '/token',
  },
  {
    name: 'logs',
    description:
      'The most recent calls of this token, newest first, optionally of one category (GET /token/logs; free).',
    inputSchema: LogsInput,
    method: 'GET',
    path: '/token/logs',
    query: ['n', 'type'],
  },
];
