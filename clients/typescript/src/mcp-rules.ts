// The stdio bridge's check of a tool call's arguments with the service's rules (input-rules.ts), before forwarding:
// a call the service would refuse and charge (a reserved bucket, a TTL out of range, `localhost` as a domain) is
// refused here for nothing. Arguments of the wrong shape are left to the service, which refuses those for free.
import * as rules from './input-rules.js';
import type { Problem } from './input-rules.js';

type Args = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** A number or its text, as the route's query coerces it; undefined when absent or of another shape. */
const count = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : undefined;

function kvPath(args: Args): Problem {
  const bucket = text(args.bucket);
  const key = text(args.key);
  return bucket === undefined || key === undefined ? null : rules.kvPathProblem(bucket, key);
}

function paging(args: Args): Problem {
  return rules.pagingProblem({ prefix: text(args.prefix), cursor: text(args.cursor), limit: count(args.limit) });
}

const CHECKS: Readonly<Record<string, (args: Args) => Problem>> = {
  kv_get: kvPath,
  kv_delete: kvPath,
  kv_set: (args) => {
    const [bucket, key, value] = [text(args.bucket), text(args.key), text(args.value)];
    const ttl = typeof args.ttl === 'number' || typeof args.ttl === 'string' ? args.ttl : undefined;
    return bucket === undefined || key === undefined || value === undefined
      ? null
      : rules.kvSetProblem(bucket, key, value, ttl);
  },
  kv_list: (args) => {
    const bucket = text(args.bucket);
    return rules.first(bucket === undefined ? null : rules.bucketProblem(bucket), paging(args));
  },
  kv_buckets: paging,
  dns_lookup: (args) =>
    Array.isArray(args.domains) && args.domains.every((domain) => typeof domain === 'string')
      ? rules.dnsProblem({ domains: args.domains })
      : null,
  url_metadata: (args) => {
    const url = text(args.url);
    return url === undefined ? null : rules.metadataProblem({ url });
  },
  webhook_test: (args) => {
    const webhookId = text(args.webhookId);
    return webhookId === undefined ? null : rules.webhookIdProblem(webhookId);
  },
};

/** The service's 400 body for these arguments of tool `name`, or null to forward the call. */
export function toolInputProblem(name: string, args: Args | undefined): Problem {
  return CHECKS[name]?.(args ?? {}) ?? null;
}
