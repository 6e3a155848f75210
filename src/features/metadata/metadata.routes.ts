import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { SERVICE_VERSION } from '../../deps.js';
import type { MeterSpec } from '../../http/metering.js';
import { walletOf } from '../../http/metering.js';
import { errorResponses, tokenAuth } from '../../http/schemas.js';
import { isoTime } from '../../lib/time.js';
import { analyzeUrl } from './metadata.service.js';
import { AnalysisThread } from './analysis-thread.js';
import { MetadataFailure, MetadataRequest, MetadataResult } from './metadata.schemas.js';
import { RobotsCache } from './robots.js';
import { SUMMARY_LEVELS } from './ai/summarizer.js';

/** docs/contract.md#costs: `none` 55, `short`/`medium`/`long` 800. */
export const METADATA_COST = 55;
export const METADATA_AI_COST = 800;
const AI_LEVELS: ReadonlySet<string> = new Set(SUMMARY_LEVELS);

/** The charge before the handler, read from the parsed (not yet validated) body. */
export function metadataCost(body: unknown): number {
  const level = typeof body === 'object' && body !== null ? (body as { aiSummary?: unknown }).aiSummary : undefined;
  return typeof level === 'string' && AI_LEVELS.has(level) ? METADATA_AI_COST : METADATA_COST;
}

/** docs/contract.md#metering: a malformed request or a failure that is not 5xx costs 1; any 5xx costs 0. */
export const metadataMeter: MeterSpec = {
  category: 'url-to-metadata',
  cost: (request) => metadataCost(request.body),
  failureCost: 1,
  settle: (status, charged) => (status >= 500 ? 0 : status >= 400 ? 1 : charged),
  durableBeforeHandler: true,
  readOnly: true,
};

const BODY_LIMIT = 16 * 1024;

const failure = (description: string) => ({
  description,
  content: { 'application/json': { schema: MetadataFailure } },
});

export const metadataRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const userAgent = `Mozilla/5.0 (compatible; coinop/${SERVICE_VERSION}; +${deps.config.publicUrl})`;
  const robots = new RobotsCache(deps.outbound, deps.clock, { headers: { 'user-agent': userAgent } });
  const analyzer = {
    outbound: deps.outbound,
    summarizer: deps.summarizer,
    robots,
    headers: { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' },
    pools: deps.pools,
    analyses: new AnalysisThread(deps.pools.pageAnalyses),
  };
  // At the stop's cut, calls still waiting for an analysis are refunded, not left charged and unanswered.
  deps.readiness.onConnectionsCut(() => void analyzer.analyses.close());
  app.addHook('onClose', () => analyzer.analyses.close());

  app.post(
    '/url-to-metadata',
    {
      // Failures answer `{success: false, error}`; the shared error handler charges, logs and formats them.
      config: { meter: metadataMeter, errorBody: 'json-failure' },
      bodyLimit: BODY_LIMIT,
      schema: {
        operationId: 'urlMetadata',
        'x-cost': `${METADATA_COST}, or ${METADATA_AI_COST} with aiSummary short, medium or long; 1 for a malformed request or a 4xx answer, 0 for a 5xx answer`,
        summary: 'Metadata of a URL, with an optional AI summary',
        description:
          'Fetches the URL (public addresses only, http or https, at most 10 redirects, 2 MiB, 10 s) and returns its SEO, technical, ' +
          'link, Open Graph, Twitter card, social, contact, media and structured-data groups; other content types get `document`. ' +
          'Failures answer `{"success": false, "error": "…"}`; 401 and 402 answer in plain text, as on every route.',
        tags: ['url-to-metadata'],
        security: tokenAuth,
        body: MetadataRequest,
        response: {
          200: MetadataResult,
          400: failure('Malformed request, invalid URL or refused (non-public) address'),
          401: errorResponses[401],
          402: errorResponses[402],
          413: failure('Payload Too Large'),
          500: failure('Internal Server Error'),
          502: failure('The URL could not be fetched (DNS, connection, TLS, timeout, redirects, or a non-2xx answer)'),
          503: failure('Too many calls of this wallet in progress: try again shortly (retry-after)'),
        },
        example: {
          body: { url: 'https://example.com/', aiSummary: 'none' },
          response: {
            success: true,
            data: {
              seo: {
                title: 'Example Domain',
                description: '',
                keywords: [],
                canonical: '',
                language: 'en',
                robots: '',
                author: '',
                headings: { h1: ['Example Domain'], h2: [], h3: [] },
                alternates: [],
                wordCount: 28,
              },
              technical: {
                statusCode: 200,
                finalUrl: 'https://example.com/',
                originalUrl: 'https://example.com/',
                robotsAllowed: true,
                isSecure: true,
                contentType: 'text/html; charset=UTF-8',
                contentLength: 1256,
                truncated: false,
                redirects: 0,
                responseTime: 182,
                analysisTruncated: false,
                server: 'ECAcc (nyd/D144)',
                lastModified: '',
              },
            },
            timestamp: '2026-06-01T12:00:00.000Z',
          },
        },
      },
    },
    async (request) => {
      const data = await analyzeUrl(analyzer, request.body.url, request.body.aiSummary ?? 'none', walletOf(request).id);
      return { success: true, data, timestamp: isoTime(deps.clock.now()) };
    },
  );
};
