import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../../src/features/formats/html-entities.js';
import { htmlToText } from '../../../src/features/formats/html-text.js';

describe('htmlToText', () => {
  it('turns blocks into lines and paragraphs into empty-line gaps, once per run of tags', () => {
    expect(htmlToText('<div><div><p>One</p></div></div><div>Two</div><div>Three</div>')).toBe('One\n\nTwo\nThree');
    expect(htmlToText('a<br>b<br><br>c<br><br><br>d')).toBe('a\nb\n\nc\n\nd');
    expect(htmlToText('<ol><li>x</li><li>y</li></ol>after')).toBe('- x\n- y\n\nafter');
  });

  it('collapses source whitespace like a browser', () => {
    expect(htmlToText('  Hello\n\n   <b>big</b>\t world  ')).toBe('Hello big world');
    expect(htmlToText('a <i></i> <i></i> b')).toBe('a b');
  });

  it('drops invisible content: head, scripts, styles, comments, declarations', () => {
    expect(htmlToText('<?xml version="1.0"?><!DOCTYPE html><head><title>T</title></head><SCRIPT type="x">if (a<b) {}</SCRIPT >Hi<!-- hidden -->!')).toBe('Hi!');
    expect(htmlToText('<style>.a>b{}</style><p>x</p><svg><text>no</text></svg>')).toBe('x');
    expect(htmlToText('<script>never closed <p>lost')).toBe('');
    expect(htmlToText('ok<!-- never closed')).toBe('ok');
    // The end tags of head (optional in HTML) and of hidden elements may be missing: text survives.
    expect(htmlToText('<html><head><meta charset="utf-8"><title>T</title><body>Visible')).toBe('Visible');
    expect(htmlToText('<noscript>Shown<p>too')).toBe('Shown\n\ntoo');
  });

  it('keeps a lone < as text and skips quoted > inside attributes', () => {
    expect(htmlToText('1 < 2 and 3 <= 4')).toBe('1 < 2 and 3 <= 4');
    expect(htmlToText('<a title="x>y" data-z=\'>\'>link</a>')).toBe('link');
  });

  it('decodes named, decimal and hex references, leaving unknown names alone', () => {
    expect(decodeEntities('&lt;&gt;&amp;&quot;&apos;&eacute;&Uuml;&mdash;&hellip;&euro;')).toBe('<>&"\'éÜ—…€');
    expect(decodeEntities('&#233;&#xE9;&#X1F600;&nbsp;')).toBe('éé😀 ');
    expect(decodeEntities('&bogus; &amp &#0; &#xD800; &#x110000;')).toBe('&bogus; &amp \uFFFD \uFFFD \uFFFD');
    // Decoded text is never parsed again.
    expect(htmlToText('&lt;script&gt;x&lt;/script&gt;')).toBe('<script>x</script>');
  });

  it('ignores marker characters smuggled in the mail', () => {
    expect(htmlToText('a\u0000\u0001b<p>c</p>')).toBe('ab\n\nc');
  });

  it('stays linear on hostile 1 MiB inputs', () => {
    const mib = 1 << 20;
    const hostile = [
      '<a'.repeat(mib / 2),
      '<noscript>'.repeat(mib / 10),
      '<svg>x</svg><svg>'.repeat(mib / 17),
      '<'.repeat(mib),
      'a <i></i> '.repeat(mib / 10),
      '<a title="'.repeat(mib / 10),
      '<br> '.repeat(mib / 5),
    ];
    const started = performance.now();
    for (const html of hostile) htmlToText(html);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
