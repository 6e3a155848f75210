import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { extractContact } from '../../../src/features/metadata/html/contact.js';
import { countWords } from '../../../src/features/metadata/html/page-text.js';
import { extractProfiles } from '../../../src/features/metadata/html/social.js';
import { analyzeNonHtml } from '../../../src/features/metadata/non-html.js';
import { parseModelAnswer } from '../../../src/features/metadata/ai/chat-summarizer.js';

/** Every pattern run on page input must be linear: 1 MB of the worst input for it stays well under a second. */
const BOUND_MS = 500;
const MB = 1_000_000;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length));

function ms(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const contactOf = (text: string) =>
  extractContact({ mailto: [], tel: [], text, jsonLdEmail: '', jsonLdTelephone: '', jsonLdAddress: '', profiles: {} });

describe('patterns on adversarial 1 MB inputs', () => {
  const contactInputs: Record<string, string> = {
    'a run of address characters without @': fill('a'),
    'one @ before a long run of labels with a bad ending': `x@${fill('a.')}1`,
    'runs of 63 address characters before each @': fill(`${'a'.repeat(63)}@`),
    'digit runs after +': fill(` +${'1'.repeat(30)}a`),
    'a run of + and digits': fill('+1'),
    'digit groups ending in a letter': fill(' +1-11-11-11-11-11-11-1111a'),
  };
  for (const [name, text] of Object.entries(contactInputs)) {
    it(`finds contacts in linear time: ${name}`, () => {
      expect(ms(() => contactOf(text))).toBeLessThan(BOUND_MS);
    });
  }

  it('still finds ordinary addresses and numbers', () => {
    const contact = contactOf('Mail ops@acme.test, call +44 20 7946 0958 or (555) 123-4567.');
    expect([contact.emails, contact.phones]).toEqual([['ops@acme.test'], ['+44 20 7946 0958', '(555) 123-4567']]);
  });

  it('counts words in linear time', () => {
    expect(ms(() => countWords(fill("a'-")))).toBeLessThan(BOUND_MS);
  });

  it('matches social profile patterns in linear time', () => {
    const urls = [
      `https://${'a'.repeat(MB)}/@x`,
      `https://x.com/${'a'.repeat(MB)}`,
      `https://pinterest.${fill('a.')}`,
      `https://m.test/${fill('@a')}`,
    ];
    expect(ms(() => extractProfiles(urls))).toBeLessThan(BOUND_MS);
  });

  it('reads a PDF title in linear time when /Title( never closes', () => {
    const body = Buffer.from(`%PDF-1.7\n${fill('/Title (')}`, 'latin1');
    const run = () =>
      analyzeNonHtml({
        body,
        truncated: false,
        url: new URL('https://a.test/x.pdf'),
        mimeType: 'application/pdf',
        headers: {},
      });
    expect(ms(run)).toBeLessThan(BOUND_MS);
    expect(
      analyzeNonHtml({
        body: Buffer.from('%PDF-1.7 /Title (Annual \\(2025\\) report)', 'latin1'),
        truncated: false,
        url: new URL('https://a.test/x.pdf'),
        mimeType: 'application/pdf',
        headers: {},
      }).title,
    ).toBe('Annual (2025) report');
  });

  it('reads a deeply nested XML document without overflowing and says the nesting cut it', () => {
    const xml = Buffer.from(
      `<?xml version="1.0"?><rss><title>Feed</title>${'<a>'.repeat(60_000)}x${'</a>'.repeat(60_000)}</rss>`,
    );
    let result: ReturnType<typeof analyzeNonHtml> | undefined;
    expect(
      ms(
        () =>
          (result = analyzeNonHtml({
            body: xml,
            truncated: false,
            url: new URL('https://a.test/feed'),
            mimeType: 'application/xml',
            headers: {},
          })),
      ),
    ).toBeLessThan(1500);
    expect(result?.title).toBe('Feed');
    expect(result?.limit).toBe('depth');
  });
});

describe('model answers', () => {
  it('strips code fences in linear time and leaves out facts nested too deep to serialize', () => {
    expect(ms(() => parseModelAnswer(`\`\`\`${' '.repeat(MB)}x`))).toBeLessThan(BOUND_MS);
    expect(ms(() => parseModelAnswer(fill('``` ')))).toBeLessThan(BOUND_MS);
    const deep = parseModelAnswer(`{"summary":"s","keyFacts":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    expect(deep).toEqual({ summary: 's', keyFacts: {} });
    expect(() => JSON.stringify(deep)).not.toThrow();
  });
});
