import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';
import { consistency, DEFAULT_PROPAGATION_SERVERS } from '../../../src/features/dns/propagation.js';
import { createLimiter, mapBounded } from '../../../src/lib/limiter.js';
import { dnsMeter } from '../../../src/features/dns/dns.routes.js';
import { daysUntil, subjectAltNames } from '../../../src/outbound/tls-probe.js';

describe('default propagation resolvers', () => {
  it('are the eight public resolvers of the contract, each with a location label, on port 53', () => {
    expect(DEFAULT_PROPAGATION_SERVERS.map((server) => server.name)).toEqual([
      '8.8.8.8',
      '8.8.4.4',
      '1.1.1.1',
      '1.0.0.1',
      '9.9.9.9',
      '208.67.222.222',
      '94.140.14.14',
      '76.76.2.0',
    ]);
    const policy = createAddressPolicy([]);
    for (const server of DEFAULT_PROPAGATION_SERVERS) {
      expect(server.address).toEqual({ host: server.name, port: 53 });
      expect(server.location).toMatch(/\(anycast, [A-Z]{2}\)$/);
      expect(policy.isAllowed(server.address.host)).toBe(true);
    }
    expect(new Set(DEFAULT_PROPAGATION_SERVERS.map((server) => server.location)).size).toBe(8);
  });

  it('computes consistency as the share of matching servers, to two decimals', () => {
    expect(consistency([true, true, true])).toBe(100);
    expect(consistency([true, false, false])).toBe(33.33);
    expect(consistency([true, true, false])).toBe(66.67);
    expect(consistency([false])).toBe(0);
    expect(consistency([])).toBe(0);
  });
});

describe('bounded concurrency', () => {
  it('never runs more tasks than the bound, and keeps the order of results', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 1, 2], 3, async (ms, index) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, ms * 5));
      running--;
      return index;
    });
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it('frees a slot when a task throws', async () => {
    const limit = createLimiter(1);
    await expect(limit(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });
});

describe('metering of /dns-lookup', () => {
  it('costs 5, keeps the charge for 2xx and 4xx, refunds every 5xx', () => {
    expect(dnsMeter.cost).toBe(5);
    const settle = dnsMeter.settle as (status: number, charged: number) => number;
    expect(settle(200, 5)).toBe(5);
    expect(settle(400, 5)).toBe(5);
    expect(settle(413, 5)).toBe(5);
    for (const status of [500, 502, 503, 504]) expect(settle(status, 5)).toBe(0);
  });
});

describe('certificate names', () => {
  it('lists subject alternative names without their kind', () => {
    expect(subjectAltNames('DNS:example.com, DNS:www.example.com, IP Address:192.0.2.1')).toEqual([
      'example.com',
      'www.example.com',
      '192.0.2.1',
    ]);
    expect(subjectAltNames(undefined)).toEqual([]);
  });
});

describe('days until a certificate expires', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const DAY = 86_400_000;
  it('counts whole days left, and whole days since expiry as negative (at least -1)', () => {
    expect(daysUntil(now + 90 * DAY, now)).toBe(90);
    expect(daysUntil(now + 90 * DAY - 1, now)).toBe(89);
    expect(daysUntil(now + 1000, now)).toBe(0);
    expect(daysUntil(now - 1000, now)).toBe(-1);
    expect(daysUntil(now - DAY - 1000, now)).toBe(-1);
    expect(daysUntil(now - 3 * DAY - 1000, now)).toBe(-3);
  });
});
