import { Type } from '@sinclair/typebox';
import type { TObject } from '@sinclair/typebox';
import type { HTTPMethods } from 'fastify';
import { KV_BUCKET_COUNT_CAP, KvBucketsQuery, KvListParams, KvListQuery, KvParams, KvSetQuery } from '../kv/index.js';
import { LogsQuery } from '../logs/index.js';
import { DnsLookupBody } from '../dns/index.js';
import { MetadataRequest } from '../metadata/index.js';
import { WebhookParams } from '../webhooks/index.js';

/** The HTTP call a tool makes: the route's own metering, validation, errors and log entry apply to it unchanged. */
export interface RouteCall {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly payload?: string | Record<string, unknown>;
  readonly contentType?: string;
}

export interface McpTool {
  readonly name: string;
  readonly description: string;
  /** The route's own TypeBox schema (JSON Schema), so the tool and the route cannot disagree on the input. */
  readonly inputSchema: TObject;
  readonly call: (args: Record<string, unknown>) => RouteCall;
}

/** Path segments come from the caller: anything that is not a string is sent as empty, which the route refuses as it would over HTTP. */
const segment = (value: unknown): string => encodeURIComponent(typeof value === 'string' ? value : '');
const kvPath = (args: Record<string, unknown>): string => `/kv/${segment(args.bucket)}/${segment(args.key)}`;

/** A query string of the arguments given (numbers as agents tend to send them are written as the route reads them). */
function query(args: Record<string, unknown>, names: readonly string[]): string {
  const search = new URLSearchParams();
  for (const name of names) {
    const value = args[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

const NoInput = Type.Object({}, { additionalProperties: false });
// `limit` has a default on the routes, so an agent may leave it out.
const KvListInput = Type.Object(
  { ...KvListParams.properties, ...KvListQuery.properties, limit: Type.Optional(KvListQuery.properties.limit) },
  { additionalProperties: false },
);
const KvBucketsInput = Type.Object({ ...KvBucketsQuery.properties, limit: Type.Optional(KvBucketsQuery.properties.limit) }, { additionalProperties: false });
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
    inputSchema: KvParams,
    call: (args) => ({ method: 'GET', url: kvPath(args) }),
  },
  {
    name: 'kv_set',
    description: 'Store a value under bucket/key, with an optional time to live in seconds (POST /kv/{bucket}/{key}; 1 credit).',
    inputSchema: KvSetInput,
    call: (args) => ({
      method: 'POST',
      url: kvPath(args) + query(args, ['ttl']),
      payload: typeof args.value === 'string' ? args.value : '',
      contentType: 'text/plain; charset=utf-8',
    }),
  },
  {
    name: 'kv_delete',
    description: 'Delete a value from the key-value store (DELETE /kv/{bucket}/{key}; 1 credit).',
    inputSchema: KvParams,
    call: (args) => ({ method: 'DELETE', url: kvPath(args) }),
  },
  {
    name: 'kv_list',
    description:
      "List a bucket's live keys with their expiry and value size in bytes, in byte order, optionally only those starting with prefix; page with cursor = the previous answer's cursor (GET /kv/{bucket}; 1 credit).",
    inputSchema: KvListInput,
    call: (args) => ({ method: 'GET', url: `/kv/${segment(args.bucket)}${query(args, ['prefix', 'limit', 'cursor'])}` }),
  },
  {
    name: 'kv_buckets',
    description: `List the wallet's buckets with their live keys and value bytes (each counted up to ${KV_BUCKET_COUNT_CAP} entries, fewer on pages of more than 10 buckets; capped beyond), in byte order, optionally only those starting with prefix; page with cursor (GET /kv; 1 credit).`,
    inputSchema: KvBucketsInput,
    call: (args) => ({ method: 'GET', url: `/kv${query(args, ['prefix', 'limit', 'cursor'])}` }),
  },
  {
    name: 'dns_lookup',
    description:
      'Look up DNS records of up to 10 domains or IP addresses, with optional propagation check and e-mail security enrichment (POST /dns-lookup; 5 credits).',
    inputSchema: DnsLookupBody,
    call: (args) => ({ method: 'POST', url: '/dns-lookup', payload: args }),
  },
  {
    name: 'url_metadata',
    description:
      'Fetch a public web page and extract its metadata (SEO, social, technical), optionally with an AI summary (POST /url-to-metadata; 55 credits, 800 with a summary).',
    inputSchema: MetadataRequest,
    call: (args) => ({ method: 'POST', url: '/url-to-metadata', payload: args }),
  },
  {
    name: 'my_ip',
    description: 'The IP address this MCP client connects from, with its country (GET /myip; 1 credit).',
    inputSchema: NoInput,
    call: () => ({ method: 'GET', url: '/myip' }),
  },
  {
    name: 'webhook_list',
    description: "List the wallet's webhooks (GET /webhook; 1 credit).",
    inputSchema: NoInput,
    call: () => ({ method: 'GET', url: '/webhook' }),
  },
  {
    name: 'webhook_test',
    description: "Send a webhook its mode's test payload and report the receiver's answer (POST /webhook/{webhookId}/test; 1 credit).",
    inputSchema: WebhookParams,
    call: (args) => ({ method: 'POST', url: `/webhook/${segment(args.webhookId)}/test` }),
  },
  {
    name: 'balance',
    description: "The token's wallet: its balance in credits and when it was created (GET /token; 1 credit).",
    inputSchema: NoInput,
    call: () => ({ method: 'GET', url: '/token' }),
  },
  {
    name: 'logs',
    description: 'The most recent calls of this token, newest first, optionally of one category (GET /token/logs; free).',
    inputSchema: LogsQuery,
    call: (args) => ({ method: 'GET', url: `/token/logs${query(args, ['n', 'type'])}` }),
  },
];
