import { describe, expect, it } from 'vitest';
import { MAX_HTML_CHARS, MAX_TEXT_CHARS, htmlToText } from '../../../src/formats/html-text.js';
import { formatEmail } from '../../../src/formats/index.js';
import type { InboundEmailPayload } from '../../../src/formats/index.js';

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
    expect(
      htmlToText(
        '<?xml version="1.0"?><!DOCTYPE html><head><title>T</title></head><SCRIPT type="x">if (a<b) {}</SCRIPT >Hi<!-- hidden -->!',
      ),
    ).toBe('Hi!');
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

  it('decodes named, decimal and hex references as browsers do, leaving unknown names alone', () => {
    expect(htmlToText('&lt;&gt;&amp;&quot;&apos;&eacute;&Uuml;&mdash;&hellip;&euro;')).toBe('<>&"\'éÜ—…€');
    expect(htmlToText('&#233;&#xE9;&#X1F600;&nbsp;x')).toBe('éé😀 x');
    // A legacy name without its `;` decodes (as in browsers); invalid code points become U+FFFD.
    expect(htmlToText('a &bogus; &amp &#0; &#xD800; &#x110000; b')).toBe('a &bogus; & \uFFFD \uFFFD \uFFFD b');
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

  it('renders a mail as a reader expects: references, a table with &nbsp; cells, a nested list, a link', () => {
    const html = [
      '<p>Build 42 &rarr; deployed &check;</p>',
      '<table><tr><th>Service</th><th>Status</th></tr><tr><td>api&nbsp;</td><td>up</td></tr><tr><td>&nbsp;</td><td>3&nbsp;replicas</td></tr></table>',
      '<ul><li>Backend<ul><li>api</li><li>worker</li></ul></li><li>Frontend</li></ul>',
      '<p>Details on <a href="https://ci.example.com/42">the build page</a>.</p>',
    ].join('');
    const text =
      'Build 42 → deployed ✓\n\nService Status\napi up\n3 replicas\n\n- Backend\n  - api\n  - worker\n- Frontend\n\nDetails on the build page.';
    expect(htmlToText(html)).toBe(text);
    const mail: InboundEmailPayload = {
      externalMessageId: 'm1',
      receivedAt: '2026-01-01T00:00:00.000Z',
      from: { email: 'ci@example.com' },
      to: [],
      cc: [],
      subject: 'Deployed',
      text: '',
      html,
      headers: {},
      attachments: [],
    };
    const event = formatEmail('pagerduty', mail, { options: { routing_key: 'k' } }) as {
      payload: { custom_details: { text: string } };
    };
    expect(event.payload.custom_details.text).toBe(text);
  });

  it('converts only the first MAX_HTML_CHARS, stops at deep nesting and bounds the text', () => {
    expect(htmlToText(`<p>${'a'.repeat(MAX_HTML_CHARS)}</p><p>after</p>`)).not.toContain('after');
    const deep = htmlToText(`${'<div>'.repeat(500)}deep`);
    expect(deep).toBe('…');
    // Nested-list indentation makes text longer than its HTML: cut, ending in "…".
    const indented = htmlToText(`${'<ul><li>'.repeat(60)}${'x<br>'.repeat(12_000)}`);
    expect(indented).toHaveLength(MAX_TEXT_CHARS);
    expect(indented.endsWith('…')).toBe(true);
  });
});
