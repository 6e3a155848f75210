import { errors } from '../../errors.js';
import type { QueryOptions, RecordType } from '../../outbound/dns/dns-types.js';
import { parseTarget } from './names.js';
import { parseServerEntry } from './propagation.js';
import type { Target } from './names.js';

/** docs/contract.md#dns-lookup: the types looked up when the request names none. */
export const DEFAULT_RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'];

/**
 * The request body after schema validation (dns.schemas.ts): types, list lengths and ranges checked,
 * and every field with a schema default filled in (Ajv useDefaults). Only what the schema cannot
 * express is left to planLookup.
 */
export interface DnsLookupInput {
  readonly domains: readonly string[];
  /** No schema default: DEFAULT_RECORD_TYPES. */
  readonly recordTypes?: readonly RecordType[];
  readonly checkPropagation: boolean;
  readonly propagationServers?: readonly string[];
  readonly performReverseLookup: boolean;
  readonly enableEnrichment: boolean;
  readonly enableSslInspection: boolean;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly retryDelay: number;
  readonly includeMetadata: boolean;
}

/** What the lookup does: unique targets, unique types, options with their defaults. */
export interface LookupPlan {
  readonly targets: readonly Target[];
  readonly recordTypes: readonly RecordType[];
  readonly checkPropagation: boolean;
  readonly propagationServers?: readonly string[];
  readonly performReverseLookup: boolean;
  readonly enableEnrichment: boolean;
  readonly enableSslInspection: boolean;
  readonly includeMetadata: boolean;
  readonly query: QueryOptions;
}

/**
 * Throws a 400 ApiError naming the entry and the rule, for names and server entries the schema cannot judge: every
 * refusal of a lookup that needs no network (whether a server is a public address is judged by the lookup, later).
 * The MCP tool dns_lookup runs it too, to refuse such input before the call is made and charged.
 */
export function planLookup(input: DnsLookupInput): LookupPlan {
  const targets: Target[] = [];
  const seen = new Set<string>();
  input.domains.forEach((raw, index) => {
    const target = parseTarget(raw);
    if (target === null)
      throw errors.invalidField(`domains[${index}]`, `"${raw.slice(0, 300)}" is not a valid domain name or IP address`);
    // `Example.com`, `example.com.` and `EXAMPLE.COM` are one lookup; so are two spellings of one address.
    if (seen.has(target.name)) return;
    seen.add(target.name);
    targets.push(target);
  });
  input.propagationServers?.forEach((entry, index) => parseServerEntry(entry, index));
  const recordTypes = [...new Set(input.recordTypes ?? DEFAULT_RECORD_TYPES)];
  return {
    targets,
    recordTypes,
    checkPropagation: input.checkPropagation,
    // An empty list overrides nothing: the default resolvers are asked.
    ...(input.propagationServers === undefined || input.propagationServers.length === 0
      ? {}
      : { propagationServers: input.propagationServers.map((s) => s.trim()) }),
    performReverseLookup: input.performReverseLookup,
    enableEnrichment: input.enableEnrichment,
    enableSslInspection: input.enableSslInspection,
    includeMetadata: input.includeMetadata,
    query: { timeoutMs: input.timeout, maxRetries: input.maxRetries, retryDelayMs: input.retryDelay },
  };
}
