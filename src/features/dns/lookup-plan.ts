import { errors } from '../../errors.js';
import type { QueryOptions, RecordType } from './dns-types.js';
import { DEFAULT_RECORD_TYPES } from './dns-types.js';
import { parseTarget } from './names.js';
import type { Target } from './names.js';

/** DECISIONS "DNS": at most 10 domains per request. */
export const MAX_DOMAINS = 10;
export const MAX_PROPAGATION_SERVERS = 10;
export const TIMEOUT_RANGE = { min: 1000, max: 60_000, default: 5000 } as const;
export const RETRIES_RANGE = { min: 0, max: 10, default: 3 } as const;
export const RETRY_DELAY_RANGE = { min: 0, max: 100_000, default: 1000 } as const;

/** The request body after schema validation (types and ranges already checked). */
export interface DnsLookupInput {
  readonly domains: readonly string[];
  readonly recordTypes?: readonly RecordType[];
  readonly checkPropagation?: boolean;
  readonly propagationServers?: readonly string[];
  readonly performReverseLookup?: boolean;
  readonly enableEnrichment?: boolean;
  readonly enableSslInspection?: boolean;
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly retryDelay?: number;
  readonly includeMetadata?: boolean;
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

function inRange(field: string, value: number | undefined, range: { min: number; max: number; default: number }): number {
  if (value === undefined) return range.default;
  if (!Number.isInteger(value) || value < range.min || value > range.max) throw errors.invalidField(field, `must be an integer from ${range.min} to ${range.max}`);
  return value;
}

/** Throws a 400 ApiError naming the field and the rule. */
export function planLookup(input: DnsLookupInput): LookupPlan {
  if (input.domains.length === 0 || input.domains.length > MAX_DOMAINS) {
    throw errors.invalidField('domains', `must list 1 to ${MAX_DOMAINS} domain names or IP addresses`);
  }
  const targets: Target[] = [];
  const seen = new Set<string>();
  input.domains.forEach((raw, index) => {
    const target = parseTarget(raw);
    if (target === null) throw errors.invalidField(`domains[${index}]`, `"${raw.slice(0, 300)}" is not a valid domain name or IP address`);
    // `Example.com`, `example.com.` and `EXAMPLE.COM` are one lookup; so are two spellings of one address.
    if (seen.has(target.name)) return;
    seen.add(target.name);
    targets.push(target);
  });
  const recordTypes = [...new Set(input.recordTypes ?? DEFAULT_RECORD_TYPES)];
  if (recordTypes.length === 0) throw errors.invalidField('recordTypes', 'must list at least one record type');
  if (input.propagationServers !== undefined && input.propagationServers.length > MAX_PROPAGATION_SERVERS) {
    throw errors.invalidField('propagationServers', `must list at most ${MAX_PROPAGATION_SERVERS} servers`);
  }
  return {
    targets,
    recordTypes,
    checkPropagation: input.checkPropagation ?? false,
    // An empty list overrides nothing: the default resolvers are asked.
    ...(input.propagationServers === undefined || input.propagationServers.length === 0 ? {} : { propagationServers: input.propagationServers.map((s) => s.trim()) }),
    performReverseLookup: input.performReverseLookup ?? true,
    enableEnrichment: input.enableEnrichment ?? true,
    enableSslInspection: input.enableSslInspection ?? true,
    includeMetadata: input.includeMetadata ?? false,
    query: {
      timeoutMs: inRange('timeout', input.timeout, TIMEOUT_RANGE),
      maxRetries: inRange('maxRetries', input.maxRetries, RETRIES_RANGE),
      retryDelayMs: inRange('retryDelay', input.retryDelay, RETRY_DELAY_RANGE),
    },
  };
}
