import { describe, expect, it } from 'vitest';
import { cutText, quotedName } from '../../../src/lib/cut-text.js';

describe('cutText', () => {
  it('keeps a text that fits as it is', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('', 3)).toBe('');
  });

  it('cuts a longer text to the limit, the last character being …', () => {
    expect(cutText('abcdef', 4)).toBe('abc…');
    expect(cutText('x'.repeat(10_000), 512)).toHaveLength(512);
  });

  it('never leaves half of a surrogate pair before the mark', () => {
    // '😀' is two UTF-16 code units; a cut between them drops the lone first half.
    const cut = cutText(`ab😀cd`, 4);
    expect(cut).toBe('ab…');
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut); // no lone surrogate (it would become U+FFFD)
    expect(cutText('a😀cd', 4)).toBe('a😀…');
  });
});

describe('quotedName', () => {
  it('quotes a name of up to 40 characters whole', () => {
    expect(quotedName('X-Trace')).toBe('X-Trace');
    expect(quotedName('a'.repeat(40))).toBe('a'.repeat(40));
  });

  it('quotes the first 40 characters of a longer name, then …', () => {
    expect(quotedName('a'.repeat(41))).toBe(`${'a'.repeat(40)}…`);
    expect(quotedName('h'.repeat(70_000))).toBe(`${'h'.repeat(40)}…`);
  });

  it('counts characters as code points, never splitting an emoji', () => {
    expect(quotedName('😀'.repeat(40))).toBe('😀'.repeat(40));
    expect(quotedName('😀'.repeat(41))).toBe(`${'😀'.repeat(40)}…`);
  });
});
