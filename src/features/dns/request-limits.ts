/**
 * The bounds of a POST /dns-lookup body, alone and free of the HTTP layer: the request schema (dns.schemas.ts) is
 * built from them, and the web console checks a lookup against the same numbers before sending it.
 */

/** At most 10 domains per request. */
export const MAX_DOMAINS = 10;
export const MAX_PROPAGATION_SERVERS = 10;
/** The only defaults: validation fills them in before the lookup runs. */
export const TIMEOUT_RANGE = { min: 1000, max: 60_000, default: 5000 } as const;
export const RETRIES_RANGE = { min: 0, max: 10, default: 3 } as const;
export const RETRY_DELAY_RANGE = { min: 0, max: 100_000, default: 1000 } as const;
