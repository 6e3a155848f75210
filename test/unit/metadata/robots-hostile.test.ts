import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { RobotsCache } from '../../../src/features/metadata/robots.js';
import type { Outbound } from '../../../src/outbound/outbound-client.js';
import { ManualClock } from '../../helpers/app.js';

/** An outbound client whose every answer is `text` (robots.txt is all RobotsCache asks for). */
function serving(text: string): Outbound {
  return {
    request: async (req) => ({
      status: 200,
      headers: {},
      body: Buffer.from(text),
      truncated: false,
      finalUrl: req.url,
      redirects: 0,
      elapsedMs: 1,
    }),
    deliverJson: async () => ({ ok: true, status: 200, elapsedMs: 0 }),
    checkUrl: async () => undefined,
    close: async () => undefined,
  };
}

describe('robots.txt with hostile wildcard rules', () => {
  it('checks a long URL against 512 KiB of wildcard rules promptly', async () => {
    const line = `Disallow: /${'*a'.repeat(200)}b\n`;
    const cache = new RobotsCache(
      serving(`User-agent: *\n${line.repeat(Math.floor((512 * 1024) / line.length))}`),
      new ManualClock(),
    );
    const started = performance.now();
    await cache.isAllowed(new URL(`https://a.test/${'a'.repeat(2000)}`));
    // Unbounded, this one check took about 10 s.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('still applies ordinary wildcard rules', async () => {
    const cache = new RobotsCache(
      serving('User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*\n'),
      new ManualClock(),
    );
    expect(await cache.isAllowed(new URL('https://a.test/files/x.pdf'))).toBe(false);
    expect(await cache.isAllowed(new URL('https://a.test/private-area/'))).toBe(false);
    expect(await cache.isAllowed(new URL('https://a.test/files/x.html'))).toBe(true);
  });
});
