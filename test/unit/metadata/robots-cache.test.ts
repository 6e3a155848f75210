import { describe, expect, it } from 'vitest';
import { RobotsCache } from '../../../src/features/metadata/robots.js';
import type { Outbound, OutboundRequest, OutboundResponse } from '../../../src/outbound/outbound-client.js';
import { OutboundError } from '../../../src/outbound/outbound-client.js';
import { ManualClock } from '../../helpers/app.js';

/** An outbound client that answers robots.txt from a script and counts requests. */
function scripted(
  answer: (url: string) => Promise<Partial<OutboundResponse>>,
): Outbound & { requests: OutboundRequest[] } {
  const requests: OutboundRequest[] = [];
  return {
    requests,
    async request(req) {
      requests.push(req);
      const partial = await answer(req.url);
      return {
        status: 200,
        headers: {},
        body: Buffer.alloc(0),
        truncated: false,
        finalUrl: req.url,
        redirects: 0,
        elapsedMs: 1,
        ...partial,
      };
    },
    deliverJson: async () => ({ ok: true, status: 200, elapsedMs: 0 }),
    checkUrl: async () => undefined,
    close: async () => undefined,
  };
}

const rules = (text: string) => async () => ({ body: Buffer.from(text) });

describe('robots.txt cache', () => {
  it('applies the rules for the coinop agent, falling back to *', async () => {
    const cache = new RobotsCache(
      scripted(rules('User-agent: *\nDisallow: /private\n\nUser-agent: coinop\nDisallow: /no-coinop\n')),
      new ManualClock(),
    );
    expect(await cache.isAllowed(new URL('https://a.test/no-coinop/x'))).toBe(false);
    // The coinop group replaces the * group entirely.
    expect(await cache.isAllowed(new URL('https://a.test/private/x'))).toBe(true);
    const star = new RobotsCache(scripted(rules('User-agent: *\nDisallow: /private\n')), new ManualClock());
    expect(await star.isAllowed(new URL('https://a.test/private/x'))).toBe(false);
    expect(await star.isAllowed(new URL('https://a.test/public'))).toBe(true);
  });

  it('fetches once per origin while fresh, also for concurrent checks, and again after the TTL', async () => {
    const clock = new ManualClock();
    const outbound = scripted(rules('User-agent: *\nDisallow:\n'));
    const cache = new RobotsCache(outbound, clock, { ttlMs: 60_000 });
    await Promise.all([cache.isAllowed(new URL('https://a.test/1')), cache.isAllowed(new URL('https://a.test/2'))]);
    await cache.isAllowed(new URL('https://a.test/3'));
    await cache.isAllowed(new URL('http://a.test/3'));
    expect(outbound.requests.map((req) => req.url)).toEqual(['https://a.test/robots.txt', 'http://a.test/robots.txt']);
    clock.advance(60_001);
    await cache.isAllowed(new URL('https://a.test/4'));
    expect(outbound.requests).toHaveLength(3);
    expect(outbound.requests[0]).toMatchObject({ method: 'GET', allowHttp: true, maxResponseBytes: 512 * 1024 });
  });

  it('allows everything when robots.txt is missing (4xx), and nothing when the site fails (5xx, network)', async () => {
    const missing = new RobotsCache(
      scripted(async () => ({ status: 404 })),
      new ManualClock(),
    );
    expect(await missing.isAllowed(new URL('https://a.test/x'))).toBe(true);
    const failing = new RobotsCache(
      scripted(async () => ({ status: 503 })),
      new ManualClock(),
    );
    expect(await failing.isAllowed(new URL('https://a.test/x'))).toBe(false);
    const unreachable = new RobotsCache(
      scripted(async () => {
        throw new OutboundError('timeout', 'timeout after 5s');
      }),
      new ManualClock(),
    );
    expect(await unreachable.isAllowed(new URL('https://a.test/x'))).toBe(false);
  });

  it('retries a failed fetch sooner than a successful one', async () => {
    const clock = new ManualClock();
    let status = 503;
    const outbound = scripted(async () => ({ status }));
    const cache = new RobotsCache(outbound, clock, { ttlMs: 600_000, errorTtlMs: 60_000 });
    expect(await cache.isAllowed(new URL('https://a.test/x'))).toBe(false);
    status = 404;
    clock.advance(60_001);
    expect(await cache.isAllowed(new URL('https://a.test/x'))).toBe(true);
    expect(outbound.requests).toHaveLength(2);
  });

  it('forgets the oldest origin beyond its size', async () => {
    const outbound = scripted(rules(''));
    const cache = new RobotsCache(outbound, new ManualClock(), { maxEntries: 2 });
    for (const host of ['a', 'b', 'c', 'a']) await cache.isAllowed(new URL(`https://${host}.test/`));
    expect(outbound.requests.map((req) => new URL(req.url).hostname)).toEqual(['a.test', 'b.test', 'c.test', 'a.test']);
  });
});
