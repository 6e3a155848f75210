import { describe, expect, it } from 'vitest';
import { RateBuckets } from '../../../src/lib/rate-buckets.js';

const clockAt = (start: number) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('RateBuckets: a token bucket per key', () => {
  it('gives the burst at once, then says how long until the next', () => {
    const clock = clockAt(5_000);
    const buckets = new RateBuckets<string>(clock, { perMinute: 6, burst: 2, maxKeys: 10 });
    expect([buckets.take('a'), buckets.take('a')]).toEqual([0, 0]);
    expect(buckets.take('a')).toBe(10_000);
    clock.advance(4_000);
    expect(buckets.wait('a')).toBe(6_000);
    clock.advance(6_000);
    expect([buckets.take('a'), buckets.take('a')]).toEqual([0, 6_000 + 4_000]);
  });

  it('keeps keys apart, and a reset key starts full', () => {
    const clock = clockAt(0);
    const buckets = new RateBuckets<number>(clock, { perMinute: 1, burst: 1, maxKeys: 10 });
    expect([buckets.take(1), buckets.take(2)]).toEqual([0, 0]);
    expect(buckets.take(1)).toBeGreaterThan(0);
    buckets.reset(1);
    expect(buckets.take(1)).toBe(0);
  });

  it('tracks at most maxKeys: a new key waits until keys full again are forgotten, then takes their room', () => {
    const clock = clockAt(0);
    const buckets = new RateBuckets<number>(clock, { perMinute: 60, burst: 1, maxKeys: 2 });
    expect([buckets.take(1), buckets.take(2)]).toEqual([0, 0]);
    expect(buckets.take(3)).toBe(1_000);
    clock.advance(1_000);
    expect(buckets.take(3)).toBeGreaterThan(0);
    clock.advance(1_000);
    expect(buckets.take(3)).toBe(0);
  });

  it('holds no key whose bucket is full again, however many keys came by', () => {
    const clock = clockAt(0);
    const buckets = new RateBuckets<number>(clock, { perMinute: 60, burst: 1, maxKeys: 5 });
    for (let key = 0; key < 1_000; key++) {
      expect(buckets.take(key)).toBe(0);
      clock.advance(1_000);
    }
  });
});
