import { describe, expect, it } from 'vitest';
import { base32Id, logId, newToken } from '../../../src/lib/ids.js';

describe('ids', () => {
  it('log ids are 20 base62 characters, all distinct, every character of the alphabet used', () => {
    const ids = Array.from({ length: 20_000 }, () => logId());
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // 400,000 draws over 62 characters: each about 6,450 times; a skewed or stuck generator misses this.
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(5_500);
  });

  it('base32 ids have the asked length, short or longer than the scratch buffer', () => {
    expect(base32Id(16)).toMatch(/^[a-z2-7]{16}$/);
    expect(base32Id(100)).toMatch(/^[a-z2-7]{100}$/);
    // Successive ids do not share the buffer's earlier contents.
    expect(base32Id(16)).not.toBe(base32Id(16));
  });

  it('tokens carry 256 random bits', () => {
    expect(newToken()).toMatch(/^coin_[A-Za-z0-9_-]{43}$/);
  });
});
