import { performance } from 'node:perf_hooks';
import type { Outbound } from '../../outbound/outbound-client.js';
import type { Summarizer, SummaryLevel, KeyFacts } from './ai/summarizer.js';
import type { HtmlAnalysis } from './html/analyze-html.js';
import type { AnalysisThread } from './analysis-thread.js';
import type { AnalysisLimit } from './html/limits.js';
import { dropNonHttpUrls } from './html/url-fields.js';
import { countWords } from './html/page-text.js';
import type { DocumentInfo, NonHtmlAnalysis } from './non-html.js';
import { fetchPage, isHtml, parsePageUrl } from './page-fetch.js';
import type { FetchedPage } from './page-fetch.js';
import type { RobotsCache } from './robots.js';
import { inWalletShare } from '../../outbound/pools.js';
import type { Pools } from '../../outbound/pools.js';
import type { PoolKey } from '../../lib/fair-limiter.js';
import type { AiBlock, AiSummary, Technical } from './metadata.schemas.js';

/** Values of `ai.keyFacts` looked through for URLs; facts with more are not returned. */
const MAX_FACT_VALUES = 10_000;

/** Page text handed to a summarizer is cut to this many characters (`ai.summary.truncated`). */
export const AI_TEXT_BUDGET = 12_000;

export type MetadataData = Partial<Omit<HtmlAnalysis, 'mainText' | 'limit'>> & {
  seo: Omit<HtmlAnalysis['seo'], 'wordCount'> & { wordCount: number };
  technical: Technical;
  document?: DocumentInfo;
  ai?: AiBlock;
};

export interface MetadataDeps {
  readonly outbound: Outbound;
  readonly summarizer: Summarizer;
  readonly robots: RobotsCache;
  /** Sent with every page request (user-agent, accept). */
  readonly headers: Record<string, string>;
  /** Each call waits for its wallet's share of these (docs/limits.md "Shared pools"). */
  readonly pools: Pick<Pools, 'pageFetches' | 'summaries' | 'summaryCalls'>;
  /** Where fetched pages are analysed, off the event loop, wallets in turn. */
  readonly analyses: AnalysisThread;
}

function technicalOf(
  page: FetchedPage,
  originalUrl: URL,
  robotsAllowed: boolean,
  limit: AnalysisLimit | undefined,
): Technical {
  return {
    statusCode: page.status,
    finalUrl: page.finalUrl,
    originalUrl: originalUrl.href,
    robotsAllowed,
    isSecure: page.finalUrlParsed.protocol === 'https:',
    contentType: page.headers['content-type'] ?? page.mimeType,
    contentLength: page.body.length,
    truncated: page.truncated,
    redirects: page.redirects,
    responseTime: page.elapsedMs,
    analysisTruncated: limit !== undefined,
    ...(limit === undefined ? {} : { analysisLimit: limit }),
    server: page.headers.server ?? '',
    lastModified: page.headers['last-modified'] ?? '',
  };
}

/** What the markup says about who is behind the page; the built-in summarizer reports these as key facts. */
function pageFacts(analysis: HtmlAnalysis): KeyFacts {
  const basics = analysis.structuredData.basics;
  const facts: KeyFacts = {};
  const organization = basics !== null && /Organization|Corporation|Business|Store|NGO/.test(basics.type);
  const siteName = analysis.openGraph.siteName;
  const companyName = organization ? basics.name : typeof siteName === 'string' ? siteName : '';
  if (companyName !== '') facts.companyName = companyName;
  if (basics !== null && basics.type !== '') facts.entityType = basics.type;
  if (basics !== null && basics.address !== '') facts.headquarters = basics.address;
  const founded = /\b(1[5-9]\d\d|20\d\d)\b/.exec(basics?.foundingDate ?? '')?.[1];
  if (founded !== undefined) facts.foundedYear = Number(founded);
  if (analysis.seo.language !== '') facts.language = analysis.seo.language;
  return facts;
}

async function summarize(
  deps: MetadataDeps,
  wallet: PoolKey,
  level: SummaryLevel,
  content: {
    text: string;
    cut: boolean;
    title: string;
    description: string;
    url: string;
    language: string;
    facts: KeyFacts;
  },
): Promise<AiBlock> {
  const started = performance.now();
  const truncated = content.cut || content.text.length > AI_TEXT_BUDGET;
  const output = await inWalletShare(deps.pools.summaries, wallet, () =>
    deps.summarizer.summarize({
      level,
      text: content.text.slice(0, AI_TEXT_BUDGET),
      title: content.title,
      description: content.description,
      url: content.url,
      language: content.language,
      pageFacts: content.facts,
    }),
  );
  // A model's facts come from the page's text: its URLs are held to http(s) as the extractors' are.
  const keyFacts = dropNonHttpUrls(output.keyFacts, MAX_FACT_VALUES) ? output.keyFacts : {};
  return {
    summary: { [level]: output.summary, contentLength: content.text.length, truncated },
    keyFacts,
    processingTime: Math.round(performance.now() - started),
    model: output.model,
    ...(output.warning === undefined ? {} : { warning: output.warning }),
  };
}

/** What the analysis thread made of a page: an HTML page's groups, or another document's facts. */
type PageAnalysis = { kind: 'html'; analysis: HtmlAnalysis } | { kind: 'other'; analysis: NonHtmlAnalysis };

/** The page's analysis, on the analysis thread (analysis-thread.ts), in the wallet's turn. */
async function analysisOf(deps: MetadataDeps, page: FetchedPage, wallet: PoolKey): Promise<PageAnalysis> {
  const { body, finalUrl: url, charset } = page;
  if (isHtml(page.mimeType)) {
    const contentLanguage = page.headers['content-language'];
    const job = { kind: 'html', body, url, charset, contentLanguage } as const;
    return { kind: 'html', analysis: await deps.analyses.analyze(wallet, job) };
  }
  const job = {
    kind: 'other',
    body,
    url,
    charset,
    truncated: page.truncated,
    mimeType: page.mimeType,
    headers: page.headers,
  } as const;
  return { kind: 'other', analysis: await deps.analyses.analyze(wallet, job) };
}

/**
 * The page, whether robots.txt allows it, and its analysis, in the wallet's share of the page-fetch pool: a fetched
 * body (up to 2 MiB) is held until its analysis is done, so a wallet holds at most its share of them, however many
 * calls it keeps open (docs/limits.md#shared-pools). robots.txt of the origin asked for is read while the page loads
 * (isAllowed never rejects, so a failed page leaves nothing unhandled behind); a redirect to another origin is
 * checked after.
 */
function fetchWithRobots(
  deps: MetadataDeps,
  url: URL,
  wallet: PoolKey,
): Promise<{ page: FetchedPage; robotsAllowed: boolean; analysis: PageAnalysis }> {
  return inWalletShare(deps.pools.pageFetches, wallet, async () => {
    const robotsFirst = deps.robots.isAllowed(url);
    const page = await fetchPage(deps.outbound, url, deps.headers);
    const robotsAllowed =
      page.finalUrlParsed.origin === url.origin ? await robotsFirst : await deps.robots.isAllowed(page.finalUrlParsed);
    return { page, robotsAllowed, analysis: await analysisOf(deps, page, wallet) };
  });
}

/**
 * Fetches one URL and tells everything it can about it, for `wallet` (whose shares of the pools it waits for).
 * Throws ApiError (400 bad URL / refused address, 502 fetch failure, 503 the wallet's queue is full).
 */
export async function analyzeUrl(
  deps: MetadataDeps,
  rawUrl: string,
  aiSummary: AiSummary,
  wallet: PoolKey,
): Promise<MetadataData> {
  const url = parsePageUrl(rawUrl);
  if (aiSummary === 'none') return analyzePage(deps, url, aiSummary, wallet);
  // Booked before the fetch: a call the summaries' queue would refuse is refused now, not after its page is fetched.
  return deps.pools.summaryCalls.within(wallet, () => analyzePage(deps, url, aiSummary, wallet));
}

async function analyzePage(deps: MetadataDeps, url: URL, aiSummary: AiSummary, wallet: PoolKey): Promise<MetadataData> {
  const { page, robotsAllowed, analysis: analysed } = await fetchWithRobots(deps, url, wallet);

  if (analysed.kind === 'other') {
    const other = analysed.analysis;
    const technical = technicalOf(page, url, robotsAllowed, other.limit);
    const data: MetadataData = {
      seo: {
        title: other.title,
        description: other.description,
        keywords: [],
        canonical: '',
        language: page.headers['content-language'] ?? '',
        robots: page.headers['x-robots-tag'] ?? '',
        author: '',
        headings: { h1: [], h2: [], h3: [] },
        alternates: [],
        wordCount: other.document.wordCount ?? 0,
      },
      technical,
      document: other.document,
    };
    if (aiSummary !== 'none') {
      data.ai = await summarize(deps, wallet, aiSummary, {
        text: other.text,
        cut: page.truncated,
        title: other.title,
        description: other.description,
        url: page.finalUrl,
        language: data.seo.language,
        facts: {
          documentKind: other.document.kind,
          ...(other.document.wordCount === undefined ? {} : { wordCount: countWords(other.text) }),
        },
      });
    }
    return data;
  }

  const { analysis } = analysed;
  const { mainText, limit, ...groups } = analysis;
  const data: MetadataData = { ...groups, technical: technicalOf(page, url, robotsAllowed, limit) };
  if (aiSummary !== 'none') {
    data.ai = await summarize(deps, wallet, aiSummary, {
      text: mainText,
      cut: page.truncated,
      title: analysis.seo.title,
      description: analysis.seo.description,
      url: page.finalUrl,
      language: analysis.seo.language,
      facts: pageFacts(analysis),
    });
  }
  return data;
}
