import type { QueryOptions, RecordType, ServerAddress } from './dns-types.js';
import { createLimiter } from '../../lib/limiter.js';
import type { DnsClient, QueryResult } from './wire-client.js';

/**
 * The resolver of one request: the request's timeout and retries, a bound on queries in flight,
 * and one answer per (name, type, servers), so the enrichment reuses the main lookup's MX and TXT
 * and shared SPF includes are fetched once.
 */
export interface RequestResolver {
  readonly options: QueryOptions;
  query(name: string, type: RecordType, servers?: readonly ServerAddress[]): Promise<QueryResult>;
}

export function createRequestResolver(client: DnsClient, options: QueryOptions, concurrency: number): RequestResolver {
  const limit = createLimiter(concurrency);
  const answers = new Map<string, Promise<QueryResult>>();
  return {
    options,
    query(name, type, servers) {
      const key = `${name.toLowerCase()}|${type}|${(servers ?? []).map((s) => `${s.host}#${s.port}`).join(',')}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = limit(() => client.query(name, type, options, servers));
        answers.set(key, answer);
      }
      return answer;
    },
  };
}
