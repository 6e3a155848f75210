import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import type { ReceivedQuery } from '../../helpers/dns-server.js';
import { lookup, useDnsApp } from './route-fixtures.js';

/** Milliseconds between consecutive arrivals at the DNS server. */
const gaps = (queries: readonly ReceivedQuery[]) =>
  queries.slice(1).map((query, i) => query.at - (queries[i] as ReceivedQuery).at);

// Timers never fire early (1 ms of rounding aside); a loaded machine makes them late, hence the slack above only.
const about = (ms: number) => ({ atLeast: ms - 10, below: ms + 400 });

describeEachStore('POST /dns-lookup: the contract’s defaults when the options are omitted', (kind) => {
  // Nothing allowed: d1.test's TLS certificate is looked for below, and its address must stay refused.
  const { app, dns } = useDnsApp(kind, { allowTestNets: false });

  it('times out after 5000 ms, retries 3 times 1000 ms apart, and inspects TLS', async () => {
    dns().setBehaviour((query) => {
      // Every try answered at once with a retryable failure: the tries and the delay between them show.
      if (query.name === 'failing.test') return { rcode: 'SERVFAIL' };
      // The first try left unanswered, the second answered: timeout plus delay between the two.
      if (query.name === 'd1.test' && query.attempt === 1) return { drop: true };
      return undefined;
    });
    const token = await app().createToken(100);

    const res = await lookup(app(), token, { domains: ['failing.test', 'd1.test'] });

    expect(res.statusCode).toBe(200);
    const [failing, late] = res.json().results;

    // maxRetries 3: 1 + 3 tries; retryDelay 1000 between them.
    const failingTries = dns().queriesFor('failing.test', 'A');
    expect(failingTries).toHaveLength(4);
    for (const gap of gaps(failingTries)) {
      expect(gap).toBeGreaterThanOrEqual(about(1000).atLeast);
      expect(gap).toBeLessThan(about(1000).below);
    }
    expect(failing.lookupResult.errors.A).toBe('SERVFAIL');

    // timeout 5000: the second try left 5000 ms (the timeout) + 1000 ms (the delay) after the first.
    const lateTries = dns().queriesFor('d1.test', 'A');
    expect(lateTries).toHaveLength(2);
    const [lateGap] = gaps(lateTries);
    expect(lateGap).toBeGreaterThanOrEqual(about(6000).atLeast);
    expect(lateGap).toBeLessThan(about(6000).below);
    // Answered on the second try; its address (documentation range) is not public, so it is not shown.
    expect(late.lookupResult.records).toEqual({});
    expect(late.lookupResult.warnings).toContain('1 non-public address removed from the answers (NON_PUBLIC_ADDRESS)');

    // enableSslInspection true: the certificate of d1.test was looked for (its address is refused, so no connection).
    expect(late.lookupResult.ssl_error).toBe('d1.test resolves to a non-public address');
  });
});
