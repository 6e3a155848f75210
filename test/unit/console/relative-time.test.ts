import { expect, it } from 'vitest';
import { relativeTime } from '../../../console/src/components/relative-time.js';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

it('says now for a moment under half a second either way, never "in 0 s"', () => {
  expect(relativeTime(at(-400), NOW)).toBe('now');
  expect(relativeTime(at(0), NOW)).toBe('now');
  expect(relativeTime(at(400), NOW)).toBe('now');
});

it('says how far a time is, ahead or past, in the largest unit that fits', () => {
  expect(relativeTime(at(5_000), NOW)).toBe('in 5 s');
  expect(relativeTime(at(-5_000), NOW)).toBe('5 s ago');
  expect(relativeTime(at(-90 * 60_000), NOW)).toBe('2 h ago');
  expect(relativeTime(at(3 * 86_400_000), NOW)).toBe('in 3 d');
});
