import { describe, expect, it } from 'vitest';
import { dropNonHttpUrls, hasOtherScheme, isUrlKey } from '../../../src/features/metadata/html/url-fields.js';

describe('URL fields of a metadata answer', () => {
  it('reads a scheme as a browser reads an href: case, leading spaces and controls, tabs and newlines do not hide it', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:x',
      '\u0001javascript:x',
      'data:,x',
      'vbscript:x',
    ])
      expect(hasOtherScheme(url), url).toBe(true);
    for (const url of ['https://a.test/', 'HTTP://a.test/', '/relative', '_:blank-node', '//a.test/x', 'plain words'])
      expect(hasOtherScheme(url), url).toBe(false);
  });

  it('names URL properties by their names, singular or plural', () => {
    for (const key of [
      'url',
      'URL',
      '@id',
      'sameAs',
      'logo',
      'image',
      'images',
      'contentUrl',
      'appUrlIphone',
      'imageSrc',
      'links',
      'homepage',
      'seeAlso',
    ])
      expect(isUrlKey(key), key).toBe(true);
    for (const key of ['name', 'description', 'imageAlt', 'title', '@type', 'status', 'siteName'])
      expect(isUrlKey(key), key).toBe(false);
  });

  it('removes only the URL values of other schemes, and says when a value is too large to look through', () => {
    const value = {
      name: 'javascript: the language',
      url: 'javascript:x',
      logo: { url: 'https://a.test/l.png' },
      sameAs: ['data:,x', 'https://a.test/'],
    };
    expect(dropNonHttpUrls(value, 100)).toBe(true);
    expect(value).toEqual({
      name: 'javascript: the language',
      logo: { url: 'https://a.test/l.png' },
      sameAs: ['https://a.test/'],
    });
    const wide = { items: Array.from({ length: 50 }, () => ({ url: 'javascript:x' })) };
    expect(dropNonHttpUrls(wide, 10)).toBe(false);
  });
});
