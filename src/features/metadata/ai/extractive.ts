import type { Summarizer, SummaryInput, SummaryOutput } from './summarizer.js';
import { SUMMARY_WORDS } from './summarizer.js';

/**
 * The built-in summarizer: picks the page's most representative sentences (word-frequency scoring with
 * position and title bonuses, near-duplicates skipped) up to the level's word budget, in page order.
 * Works offline and in any language Intl.Segmenter knows; stop words are English only.
 */
export const BUILTIN_MODEL = 'builtin-extractive';

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do ' +
    'does doing down during each few for from further get got had has have having he her here hers herself him himself his how i if in into is it ' +
    'its itself just like may me might more most must my myself no nor not now of off on once one only or other our ours ourselves out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this those through to too under until up us ' +
    'use used using very via was we were what when where which while who whom why will with would you your yours yourself yourselves new more ' +
    'make makes made many much every well back even still way ever per within without across among upon'
  ).split(' '),
);

interface Sentence {
  readonly text: string;
  readonly index: number;
  readonly words: number;
  readonly terms: ReadonlySet<string>;
}

export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter(
    (term) => term.length > 2 && !STOPWORDS.has(term) && !/^[\d'’-]+$/.test(term),
  );
}

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}

/** The `count` most frequent content words of `text`, ties broken by first appearance. */
export function topTerms(text: string, count: number): string[] {
  const frequency = new Map<string, number>();
  for (const term of terms(text)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return [...frequency.entries()]
    .filter(([, n]) => n > 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([term]) => term);
}

function segmenter(language: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(language || 'en', { granularity: 'sentence' });
  } catch {
    return new Intl.Segmenter('en', { granularity: 'sentence' });
  }
}

function sentencesOf(text: string, language: string): Sentence[] {
  const split = segmenter(language);
  const out: Sentence[] = [];
  for (const line of text.split('\n')) {
    for (const { segment } of split.segment(line)) {
      const sentence = segment.trim();
      const words = wordCount(sentence);
      // Headings, menu entries and captions are not sentences worth quoting.
      if (words < 4 || words > 80) continue;
      out.push({ text: sentence, index: out.length, words, terms: new Set(terms(sentence)) });
    }
  }
  return out;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Whole words, at most `limit` of them, with an ellipsis when cut. */
function firstWords(text: string, limit: number): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  return words.length <= limit ? words.join(' ') : `${words.slice(0, limit).join(' ')}…`;
}

export function extractiveSummary(
  text: string,
  options: { targetWords: number; title?: string; language?: string },
): string {
  const sentences = sentencesOf(text, options.language ?? '');
  if (sentences.length === 0) return firstWords(text.replace(/\n/g, ' '), options.targetWords);
  const total = sentences.reduce((sum, sentence) => sum + sentence.words, 0);
  if (total <= options.targetWords) return sentences.map((sentence) => sentence.text).join(' ');

  const frequency = new Map<string, number>();
  for (const sentence of sentences)
    for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const maxFrequency = Math.max(1, ...frequency.values());
  const titleTerms = new Set(terms(options.title ?? ''));
  const scored = sentences.map((sentence) => {
    let weight = 0;
    for (const term of sentence.terms) weight += (frequency.get(term) ?? 0) / maxFrequency;
    const density = weight / Math.sqrt(sentence.terms.size + 1);
    const position = 0.3 * (1 - sentence.index / sentences.length);
    const title = 0.15 * [...sentence.terms].filter((term) => titleTerms.has(term)).length;
    return { sentence, score: density + position + Math.min(title, 0.6) };
  });
  scored.sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index);

  const picked: Sentence[] = [];
  let words = 0;
  for (const { sentence } of scored) {
    if (words >= options.targetWords * 0.8) break;
    if (picked.length > 0 && words + sentence.words > options.targetWords * 1.25) continue;
    if (picked.some((other) => overlap(other.terms, sentence.terms) > 0.6)) continue;
    picked.push(sentence);
    words += sentence.words;
  }
  return picked
    .sort((a, b) => a.index - b.index)
    .map((sentence) => sentence.text)
    .join(' ');
}

/** Facts a page supports without reading it like a person: what its markup says plus its main topics. */
export function extractiveKeyFacts(input: SummaryInput): Record<string, unknown> {
  const words = wordCount(input.text);
  return {
    ...input.pageFacts,
    topics: topTerms(`${input.title}\n${input.text}`, 8),
    wordCount: words,
    readingTimeMinutes: Math.max(1, Math.round(words / 230)),
  };
}

export function createExtractiveSummarizer(): Summarizer {
  return {
    async summarize(input: SummaryInput): Promise<SummaryOutput> {
      const targetWords = SUMMARY_WORDS[input.level];
      // A page without text (an image, an empty shell) is summed up by what its head says.
      const summary =
        input.text.trim() === ''
          ? firstWords([input.title, input.description].filter((part) => part !== '').join('. '), targetWords)
          : extractiveSummary(input.text, { targetWords, title: input.title, language: input.language });
      return {
        summary,
        keyFacts: extractiveKeyFacts(input),
        model: BUILTIN_MODEL,
      };
    },
  };
}
