import { describe, expect, it } from 'vitest';
import { FreeRowLimit } from '../../../src/ledger/free-row-limit.js';
import { MINUTE } from '../../../src/lib/time.js';

describe('FreeRowLimit', () => {
  const clockAt = (start: number) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('allows the budget per wallet per minute, then refuses until the minute is over', () => {
    const clock = clockAt(1_000_000);
    const limit = new FreeRowLimit(clock, 3);
    expect([1, 2, 3, 4].map(() => limit.allow(7))).toEqual([true, true, true, false]);
    expect(limit.allow(8)).toBe(true);
    clock.advance(MINUTE - 1);
    expect(limit.allow(7)).toBe(false);
    clock.advance(1);
    expect(limit.allow(7)).toBe(true);
  });

  it('starts a new window when the clock goes back', () => {
    const clock = clockAt(1_000_000);
    const limit = new FreeRowLimit(clock, 1);
    expect(limit.allow(1)).toBe(true);
    expect(limit.allow(1)).toBe(false);
    clock.advance(-5);
    expect(limit.allow(1)).toBe(true);
  });
});
