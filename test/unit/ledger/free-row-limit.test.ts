import { describe, expect, it } from 'vitest';
import { FreeRowLimit } from '../../../src/ledger/free-row-limit.js';

describe('FreeRowLimit', () => {
  const clockAt = (start: number) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('allows the burst per wallet at once, then one row per 60/perMinute seconds', () => {
    const clock = clockAt(1_000_000);
    const limit = new FreeRowLimit(clock, { perMinute: 60, burst: 3, maxKeys: 10 });
    expect([1, 2, 3, 4].map(() => limit.allow(7))).toEqual([true, true, true, false]);
    expect(limit.allow(8)).toBe(true);
    clock.advance(999);
    expect(limit.allow(7)).toBe(false);
    clock.advance(1);
    expect([limit.allow(7), limit.allow(7)]).toEqual([true, false]);
  });

  it('never locks a wallet out for longer when the clock goes back', () => {
    const clock = clockAt(1_000_000);
    const limit = new FreeRowLimit(clock, { perMinute: 60, burst: 1, maxKeys: 10 });
    expect(limit.allow(1)).toBe(true);
    expect(limit.allow(1)).toBe(false);
    clock.advance(-60_000);
    clock.advance(1000);
    expect(limit.allow(1)).toBe(true);
  });
});
