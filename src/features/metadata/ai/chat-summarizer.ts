import type OpenAI from 'openai';
import { requireOnDemand } from '../../../lib/require-on-demand.js';

/** The SDK, loaded only when an AI provider is configured. */
const openAiSdk = () => requireOnDemand<{ OpenAI: typeof OpenAI; APIError: typeof OpenAI.APIError }>('openai');
import type { Logger } from 'pino';
import type { Outbound } from '../../../outbound/outbound-client.js';
import { nestsWithin } from '../html/structured-data.js';
import { createExtractiveSummarizer } from './extractive.js';
import { outboundFetch } from './outbound-fetch.js';
import type { KeyFacts, Summarizer, SummaryInput, SummaryOutput } from './summarizer.js';
import { SUMMARY_WORDS } from './summarizer.js';

export interface ChatProvider {
  /** AI_BASE_URL; OpenAI's own API when unset. */
  baseUrl?: string;
  apiKey?: string;
  model?: string;
}

export const DEFAULT_AI_MODEL = 'gpt-4o-mini';
/** A model may take a while on a long page; the page fetch has its own, shorter limit. */
const AI_TIMEOUT_MS = 60_000;
const AI_RESPONSE_BYTES = 1024 * 1024;
const MAX_FACT_DEPTH = 16;

const FACT_KEYS =
  'companyName, companyType, industry, services (array), targetAudience, businessModel, headquarters, foundedYear (number), keyFeatures (array), topics (array)';

function prompt(input: SummaryInput): Array<{ role: 'system' | 'user'; content: string }> {
  const words = SUMMARY_WORDS[input.level];
  return [
    {
      role: 'system',
      content:
        'You summarize web pages for an API. Answer with a single JSON object and nothing else: ' +
        `{"summary": string, "keyFacts": object}. The summary is plain text of about ${words} words, factual, ` +
        "written in the page's language, using only what the page says. keyFacts holds facts the page states, " +
        `with these keys when the page supports them: ${FACT_KEYS}. Leave out keys the page does not support.`,
    },
    {
      role: 'user',
      content: `URL: ${input.url}\nTitle: ${input.title}\nDescription: ${input.description}\n\nPage text:\n${input.text}`,
    },
  ];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The model's answer: the JSON object it was asked for, or (models do stray) its text as the summary. */
export function parseModelAnswer(content: string): { summary: string; keyFacts: KeyFacts } {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start !== -1 && end > start) {
    try {
      const parsed: unknown = JSON.parse(content.slice(start, end + 1));
      if (isObject(parsed) && typeof parsed.summary === 'string') {
        // Facts nested deeper than any real answer would overflow the reply serializer: left out.
        const keyFacts =
          isObject(parsed.keyFacts) && nestsWithin(parsed.keyFacts, MAX_FACT_DEPTH) ? parsed.keyFacts : {};
        return { summary: parsed.summary.trim(), keyFacts };
      }
    } catch {
      // fall through: not JSON after all
    }
  }
  return { summary: content.replace(/^```\w*\s*|```\s*$/g, '').trim(), keyFacts: {} };
}

function causeOf(error: unknown): string {
  if (error instanceof openAiSdk().APIError && error.status !== undefined) return `HTTP ${error.status}`;
  if (error instanceof Error) return error.message;
  return 'unknown error';
}

/**
 * Summaries from any OpenAI-compatible chat-completions endpoint, called through the outbound client.
 * When the provider fails, the built-in summary stands in (with a warning), so a paid call still answers.
 */
export function createChatSummarizer(provider: ChatProvider, outbound: Outbound, logger: Logger): Summarizer {
  const model = provider.model ?? DEFAULT_AI_MODEL;
  const client = new (openAiSdk().OpenAI)({
    baseURL: provider.baseUrl ?? null,
    apiKey: provider.apiKey ?? 'unset',
    // The outbound client owns the time limit (the SDK's own abort never reaches it), and a provider that
    // failed once is not asked again: a paid call would otherwise wait two full timeouts before the fallback.
    fetch: outboundFetch(outbound, { timeoutMs: AI_TIMEOUT_MS, maxResponseBytes: AI_RESPONSE_BYTES }),
    maxRetries: 0,
  });
  const fallback = createExtractiveSummarizer();
  return {
    async summarize(input: SummaryInput): Promise<SummaryOutput> {
      try {
        const completion = await client.chat.completions.create({ model, messages: prompt(input), temperature: 0.2 });
        const content = completion.choices[0]?.message.content ?? '';
        if (content.trim() === '') throw new Error('empty answer');
        const answer = parseModelAnswer(content);
        const keyFacts = Object.keys(answer.keyFacts).length > 0 ? answer.keyFacts : input.pageFacts;
        return { summary: answer.summary, keyFacts, model: completion.model || model };
      } catch (error) {
        const cause = causeOf(error);
        logger.warn({ err: error, model }, 'AI summary failed; using the built-in summarizer');
        const builtIn = await fallback.summarize(input);
        return { ...builtIn, warning: `AI provider failed (${cause}); built-in summary used` };
      }
    },
  };
}
