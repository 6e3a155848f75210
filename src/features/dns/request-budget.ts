import { performance } from 'node:perf_hooks';
import type { QueryBudget } from '../../outbound/dns/dns-types.js';

/**
 * The contract (docs/contract.md#dns-lookup) lets one query take 60 s with 10 retries 100 s apart; a request as a whole gets this long,
 * after which every query still outstanding fails as TIMEOUT and the answer holds what was gathered.
 */
export const REQUEST_DEADLINE_MS = 30_000;
/** UDP and TCP queries plus TLS probes one request may send; later ones fail as PACKET_LIMIT. */
export const MAX_PACKETS_PER_REQUEST = 500;

export interface RequestLimits {
  readonly deadlineMs: number;
  readonly maxPackets: number;
}

export interface RequestBudget extends QueryBudget {
  readonly limits: RequestLimits;
  /** The deadline has passed. */
  expired(): boolean;
  /** A packet was refused for the cap. */
  exhausted(): boolean;
}

export function createRequestBudget(limits: RequestLimits): RequestBudget {
  const deadline = performance.now() + limits.deadlineMs;
  let sent = 0;
  let refused = false;
  const remainingMs = () => Math.max(0, Math.floor(deadline - performance.now()));
  return {
    limits,
    remainingMs,
    expired: () => remainingMs() <= 0,
    exhausted: () => refused,
    takePacket() {
      if (sent >= limits.maxPackets) {
        refused = true;
        return false;
      }
      sent++;
      return true;
    },
  };
}

export const deadlineWarning = (limits: RequestLimits): string =>
  `Request deadline of ${limits.deadlineMs} ms reached: queries still outstanding are reported as TIMEOUT`;
export const packetLimitWarning = (limits: RequestLimits): string =>
  `Packet limit of ${limits.maxPackets} per request reached: later queries were not sent (PACKET_LIMIT)`;
