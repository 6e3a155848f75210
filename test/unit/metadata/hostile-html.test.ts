import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../../src/features/metadata/html/analyze-html.js';
import type { HtmlAnalysis } from '../../../src/features/metadata/html/analyze-html.js';

/**
 * Hostile pages: the analysis must stay linear in the page and bounded (bytes, nodes, depth, time), never throw,
 * and say when it read only part of the page. The bound leaves room for a loaded test machine: the analysis
 * itself stops at 500 ms; the old quadratic code took seconds to minutes here, or overflowed the stack.
 */
const BOUND_MS = 1500;

function timed(html: string): { result: HtmlAnalysis; ms: number } {
  const started = performance.now();
  const result = analyzeHtml({ body: Buffer.from(html), url: new URL('https://site.test/') });
  return { result, ms: performance.now() - started };
}

const page = (body: string) => `<!doctype html><html><head><title>Hostile</title></head><body>${body}</body></html>`;
const nested = (open: string, close: string, depth: number, inner = 'text') =>
  open.repeat(depth) + inner + close.repeat(depth);

describe('HTML analysis of hostile pages', () => {
  it('reads 5,000 nested noise-classed divs in linear time and says the nesting cut it', () => {
    const { result, ms } = timed(page(nested('<div class="ad">x ', '</div>', 5000)));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.seo.title).toBe('Hostile');
    expect(result.limit).toBe('depth');
  });

  it('reads 50,000 nested noise-classed divs (over 1 MiB) without stalling', () => {
    const { result, ms } = timed(page(nested('<div class="ad sidebar">x ', '</div>', 50_000)));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.limit).toBeDefined();
  });

  it('survives 100,000 nested elements without a stack overflow', () => {
    const { result, ms } = timed(page(nested('<span>', '</span>', 100_000)));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.limit).toBeDefined();
    expect(result.seo.title).toBe('Hostile');
  });

  it('survives deeply nested headings and content roots', () => {
    const headings = timed(page(nested('<h1>', '</h1>', 100_000)));
    const articles = timed(page(nested('<article class="content"><p>word word word</p>', '</article>', 100_000)));
    for (const { ms } of [headings, articles]) expect(ms).toBeLessThan(BOUND_MS);
    expect(articles.result.mainText).toContain('word word word');
  });

  it('analyses a 1 MB page of many siblings inside 100 noise-classed wrappers within the bound', () => {
    const siblings = '<p>Plain words in a paragraph.</p><a href="/x">x</a>'.repeat(20_000);
    const { result, ms } = timed(page(nested('<div class="ad">', '</div>', 100, siblings)));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.seo.wordCount).toBeGreaterThan(0);
    expect(result.links.internal.urls).toEqual(['https://site.test/x']);
  });

  it('stops at 100,000 nodes and says so', () => {
    const { result, ms } = timed(page('<i>a</i>'.repeat(120_000)));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(['nodes', 'time']).toContain(result.limit);
  });

  it('parses at most 1 MiB of markup and says so', () => {
    const { result } = timed(page(`<p>${'word '.repeat(300_000)}</p>`));
    expect(result.limit).toBe('bytes');
    expect(result.seo.title).toBe('Hostile');
  });

  it('reads JSON-LD nested 100,000 deep without overflowing, and does not return it', () => {
    const deep = `{"@type":"Thing","name":"Deep","x":${'['.repeat(60_000)}${']'.repeat(60_000)}}`;
    const wrapped = `[[[${'{"@graph":'.repeat(10_000)}[{"@type":"Organization","name":${'['.repeat(50_000)}"Acme"${']'.repeat(50_000)}}]${'}'.repeat(10_000)}]]]`;
    const { result, ms } = timed(
      page(`<script type="application/ld+json">${deep}</script><script type="application/ld+json">${wrapped}</script>`),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.structuredData.types).toContain('Thing');
    expect(result.structuredData.jsonLd).toEqual([]);
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('keeps the answer for an ordinary page unmarked', () => {
    const { result } = timed(page('<article><p>An ordinary page.</p></article>'));
    expect(result.limit).toBeUndefined();
  });
});
