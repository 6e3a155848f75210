import { describe, expect, it } from 'vitest';
import { GenerationalMap } from '../../../src/lib/generational-map.js';

const clockAt = (start: number) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('GenerationalMap: entries forgotten a period or two after their last write', () => {
  it('keeps an entry at least a period after its last write, and forgets it within two', () => {
    const clock = clockAt(0);
    const map = new GenerationalMap<string, number>(clock, 1_000);
    map.set('a', 1);
    clock.advance(999);
    map.set('b', 2);
    clock.advance(1);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([1, 2, 2]);
    clock.advance(1_000);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([undefined, undefined, 0]);
  });

  it('keeps an entry written again in the newer generation', () => {
    const clock = clockAt(0);
    const map = new GenerationalMap<string, number>(clock, 1_000);
    map.set('a', 1);
    clock.advance(1_500);
    map.set('a', 2);
    expect(map.size).toBe(1);
    clock.advance(1_000);
    expect(map.get('a')).toBe(2);
    map.delete('a');
    expect(map.has('a')).toBe(false);
  });

  it('forgets everything after two quiet periods, or when the clock goes back', () => {
    const clock = clockAt(10_000);
    const map = new GenerationalMap<string, number>(clock, 1_000);
    map.set('a', 1);
    clock.advance(2_000);
    expect(map.size).toBe(0);
    map.set('b', 1);
    clock.advance(-5_000);
    expect(map.get('b')).toBeUndefined();
  });
});
