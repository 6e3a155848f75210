/** What produces `ai.summary` and `ai.keyFacts`: a chat model, or the built-in extractive summarizer. */
export type SummaryLevel = 'short' | 'medium' | 'long';
export const SUMMARY_LEVELS: readonly SummaryLevel[] = ['short', 'medium', 'long'];

/** Target length of each level, in words (docs/contract.md#url-metadata: about 50, 150 and 300). */
export const SUMMARY_WORDS: Readonly<Record<SummaryLevel, number>> = { short: 50, medium: 150, long: 300 };

export type KeyFacts = Record<string, unknown>;

export interface SummaryInput {
  level: SummaryLevel;
  /** The page's main text, already cut to the budget. */
  text: string;
  title: string;
  description: string;
  url: string;
  /** BCP 47 tag from the page, or `''`. */
  language: string;
  /** Facts the page states in its markup (JSON-LD, Open Graph); the built-in summarizer returns them. */
  pageFacts: KeyFacts;
}

export interface SummaryOutput {
  summary: string;
  keyFacts: KeyFacts;
  /** `builtin-extractive`, or the provider's model name. */
  model: string;
  /** Set when the provider failed and the built-in summary stands in. */
  warning?: string;
}

export interface Summarizer {
  summarize(input: SummaryInput): Promise<SummaryOutput>;
}
