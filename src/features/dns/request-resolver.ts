import type { AddressPolicy } from '../../outbound/address-policy.js';
import type { QueryOptions, RecordType, ServerAddress } from '../../outbound/dns/dns-types.js';
import { createLimiter } from '../../lib/limiter.js';
import type { Limiter } from '../../lib/limiter.js';
import { mayAsk, NOT_ASKED, screenOwner } from './public-answers.js';
import type { DnsClient, QueryResult } from '../../outbound/dns/wire-client.js';

/**
 * The resolver of one request: the request's timeout, retries and budget (deadline, packet cap), a
 * bound on queries in flight, and one answer per (name, type, servers), so the enrichment reuses the
 * main lookup's MX and TXT and shared SPF includes are fetched once. Reverse names of addresses the
 * policy refuses are never asked, whoever asks (main lookup, reverse lookup, SPF include, …).
 */
export interface RequestResolver {
  readonly options: QueryOptions;
  query(name: string, type: RecordType, servers?: readonly ServerAddress[]): Promise<QueryResult>;
  /** Runs other work that reaches out (a TLS probe) under the same bounds as a query. */
  bounded: Limiter;
}

/** How one request's queries are asked and bounded. */
export interface RequestResolverSettings {
  readonly options: QueryOptions;
  /** The most queries of the request in flight at once. */
  readonly concurrency: number;
  readonly policy: AddressPolicy;
  /**
   * The wallet's share of the process's query pool (src/outbound/pools.ts), taken by each query once the
   * request's own bound lets it go, so a request's waiting queries wait here, not in the shared pool.
   */
  readonly slot?: Limiter | undefined;
}

export function createRequestResolver(client: DnsClient, settings: RequestResolverSettings): RequestResolver {
  const { options, concurrency, policy, slot = (task) => task() } = settings;
  const perRequest = createLimiter(concurrency);
  const limit: Limiter = (task) => perRequest(() => slot(task));
  const answers = new Map<string, Promise<QueryResult>>();
  return {
    options,
    bounded: limit,
    query(name, type, servers) {
      const key = `${name.toLowerCase()}|${type}|${(servers ?? []).map((s) => `${s.host}#${s.port}`).join(',')}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = mayAsk(name, policy)
          ? limit(() => client.query(name, type, options, servers)).then((result) => screenOwner(result, policy))
          : Promise.resolve(NOT_ASKED);
        answers.set(key, answer);
      }
      return answer;
    },
  };
}
