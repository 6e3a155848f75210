import type { Logger } from 'pino';
import type { Config } from '../../../config.js';
import type { Outbound } from '../../../outbound/outbound-client.js';
import { createChatSummarizer } from './chat-summarizer.js';
import { createExtractiveSummarizer } from './extractive.js';
import type { Summarizer } from './summarizer.js';

/** A chat model when AI_BASE_URL or AI_API_KEY is set; otherwise the built-in extractive summarizer. */
export function createSummarizer(config: Config, outbound: Outbound, logger: Logger): Summarizer {
  if (config.aiBaseUrl === undefined && config.aiApiKey === undefined) return createExtractiveSummarizer();
  return createChatSummarizer(
    { baseUrl: config.aiBaseUrl, apiKey: config.aiApiKey, model: config.aiModel },
    outbound,
    logger,
  );
}
