import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { balanceOf, FAST, lookup, useDnsApp } from './route-fixtures.js';

/** Six queries a call, each held by the server past the call's 1 s timeout. */
const HOSTILE_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'] as const;
const QUIET = { enableEnrichment: false, performReverseLookup: false, checkPropagation: false } as const;
const { perKey: CALLS_PER_WALLET, maxWaitingPerKey: CALLS_WAITING = 0 } = POOL_SIZES.dnsCalls;
const { perKey: QUERIES_PER_WALLET } = POOL_SIZES.dnsQueries;
/** More calls at once than one wallet may have running and waiting. */
const HOSTILE_CALLS = CALLS_PER_WALLET + CALLS_WAITING + 6;

describeEachStore('POST /dns-lookup: one wallet cannot take the DNS work of others', (kind) => {
  const { app, dns } = useDnsApp(kind);

  it("a wallet's many slow lookups hold only its share of queries; another wallet's lookup answers at once; calls past its queue bound get 503, free", async () => {
    dns().setBehaviour((query) => (query.name.endsWith('.hostile.test') ? { delayMs: 3000 } : undefined));
    const hostile = await app().createToken(10_000);
    const victim = await app().createToken(100);
    const before = dns().queries.length;

    const hostileCalls = Array.from({ length: HOSTILE_CALLS }, (_, i) =>
      lookup(app(), hostile, { domains: [`h${i}.hostile.test`], recordTypes: HOSTILE_TYPES, ...QUIET, ...FAST }),
    );
    // Once the hostile queries reach the server, the victim asks for a name that answers at once.
    const deadline = performance.now() + 5000;
    while (dns().queries.length - before < QUERIES_PER_WALLET && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const started = performance.now();
    const res = await lookup(app(), victim, { domains: ['example.test'], recordTypes: ['A'], ...QUIET, ...FAST });
    const victimMs = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0].lookupResult.records.A).toEqual([{ type: 'A', address: '192.0.2.10', ttl: 300 }]);
    expect(victimMs).toBeLessThan(1000);

    const answers = await Promise.all(hostileCalls);
    const hostileQueries = dns()
      .queries.slice(before)
      .filter((query) => query.name.endsWith('.hostile.test'));
    // Each query holds its slot for its 1 s timeout: within 900 ms of the first, no more than the wallet's share started.
    const first = Math.min(...hostileQueries.map((query) => query.at));
    expect(hostileQueries.filter((query) => query.at - first < 900).length).toBeLessThanOrEqual(QUERIES_PER_WALLET);

    const refused = answers.filter((answer) => answer.statusCode === 503);
    expect(refused.length).toBe(HOSTILE_CALLS - CALLS_PER_WALLET - CALLS_WAITING);
    for (const answer of refused) {
      expect(answer.body).toBe('Too many calls of this wallet in progress: try again shortly');
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers['x-cost']).toBe('0');
    }
    const served = answers.filter((answer) => answer.statusCode === 200);
    expect(served.length).toBe(CALLS_PER_WALLET + CALLS_WAITING);
    expect(await balanceOf(app(), hostile)).toBe(10_000 - 5 * served.length);
  }, 30_000);
});
