import { describe, expect, it } from 'vitest';
import {
  createExtractiveSummarizer,
  extractiveSummary,
  topTerms,
} from '../../../src/features/metadata/ai/extractive.js';
import { RICH_ARTICLE_SENTENCES } from '../../fixtures/metadata-pages.js';

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
const LONG_TEXT = [
  ...RICH_ARTICLE_SENTENCES,
  ...RICH_ARTICLE_SENTENCES.map((sentence) => sentence.replace('Acme', 'The firm')),
].join('\n');

describe('extractive summary', () => {
  it('keeps to the word budget and the page order', () => {
    const summary = extractiveSummary(LONG_TEXT, { targetWords: 50, title: 'Acme reusable rockets' });
    expect(words(summary)).toBeLessThanOrEqual(63);
    expect(words(summary)).toBeGreaterThanOrEqual(30);
    const positions = summary.split(/(?<=\.) /).map((sentence) => LONG_TEXT.indexOf(sentence));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('skips near-duplicate sentences', () => {
    const summary = extractiveSummary(LONG_TEXT, { targetWords: 150 });
    const picked = summary.split(/(?<=\.) /);
    for (const sentence of picked) {
      const twin = sentence.includes('Acme')
        ? sentence.replace('Acme', 'The firm')
        : sentence.replace('The firm', 'Acme');
      if (twin !== sentence) expect(picked).not.toContain(twin);
    }
  });

  it('returns all sentences of a text shorter than the budget', () => {
    const text = 'One short sentence here. Another sentence follows it now.';
    expect(extractiveSummary(text, { targetWords: 50 })).toBe(text);
  });

  it('falls back to the first words when the text has no sentence of four words or more', () => {
    expect(extractiveSummary('Home\nAbout\nContact us', { targetWords: 2 })).toBe('Home About…');
    expect(extractiveSummary('', { targetWords: 50 })).toBe('');
  });

  it('segments sentences of other scripts', () => {
    const text =
      '東京は日本の首都であり、多くの人々が暮らしている大きな都市です。大阪は商業の中心地として知られている都市の一つです。';
    expect(extractiveSummary(text, { targetWords: 5, language: 'ja' })).not.toBe('');
  });

  it('names the most frequent content words, without stop words', () => {
    expect(topTerms('The rocket and the rocket and the engine. Engine of rockets, rocket!', 3)).toEqual([
      'rocket',
      'engine',
    ]);
  });

  it('reports the page facts with topics, word count and reading time', async () => {
    const output = await createExtractiveSummarizer().summarize({
      level: 'short',
      text: LONG_TEXT,
      title: 'Acme',
      description: '',
      url: 'https://acme.test/',
      language: 'en',
      pageFacts: { companyName: 'Acme Rockets Inc.' },
    });
    expect(output.model).toBe('builtin-extractive');
    expect(output.keyFacts).toMatchObject({
      companyName: 'Acme Rockets Inc.',
      wordCount: words(LONG_TEXT),
      readingTimeMinutes: 2,
    });
    expect(output.keyFacts.topics).toContain('rockets');
  });

  it('summarizes title and description when the page has no text', async () => {
    const output = await createExtractiveSummarizer().summarize({
      level: 'short',
      text: '',
      title: 'Acme Rockets',
      description: 'Reusable rockets for small satellites',
      url: 'https://acme.test/',
      language: '',
      pageFacts: {},
    });
    expect(output.summary).toBe('Acme Rockets. Reusable rockets for small satellites');
  });
});
