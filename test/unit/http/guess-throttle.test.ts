import { describe, expect, it } from 'vitest';
import { GuessThrottle } from '../../../src/http/guess-throttle.js';

const clockAt = (start: number) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};
const RULE = { failures: 3, windowMs: 60_000, maxClients: 2 };

describe('GuessThrottle: wrong guesses per client', () => {
  it('locks a client out for a window after its last allowed wrong guess, and says so once', () => {
    const clock = clockAt(0);
    const throttle = new GuessThrottle(clock, RULE);
    expect([throttle.failed('a'), throttle.failed('a')]).toEqual([false, false]);
    expect(throttle.wait('a')).toBe(0);
    clock.advance(10_000);
    expect(throttle.failed('a')).toBe(true);
    expect(throttle.wait('a')).toBe(60_000);
    expect(throttle.wait('b')).toBe(0);
    clock.advance(59_999);
    expect(throttle.wait('a')).toBe(1);
    clock.advance(1);
    expect(throttle.wait('a')).toBe(0);
  });

  it('forgets wrong guesses once their window ends, and at a right guess', () => {
    const clock = clockAt(0);
    const throttle = new GuessThrottle(clock, RULE);
    throttle.failed('a');
    throttle.failed('a');
    clock.advance(60_000);
    expect(throttle.failed('a')).toBe(false);
    throttle.failed('a');
    throttle.succeeded('a');
    expect([throttle.failed('a'), throttle.failed('a'), throttle.wait('a')]).toEqual([false, false, 0]);
  });

  it('refuses a client it has no room to count until the tallies of a window ago are forgotten', () => {
    const clock = clockAt(0);
    const throttle = new GuessThrottle(clock, RULE);
    throttle.failed('a');
    clock.advance(1_000);
    throttle.failed('b');
    expect(throttle.wait('c')).toBe(59_000);
    clock.advance(59_000);
    expect(throttle.wait('c')).toBeGreaterThan(0);
    clock.advance(60_000);
    expect(throttle.wait('c')).toBe(0);
  });
});
