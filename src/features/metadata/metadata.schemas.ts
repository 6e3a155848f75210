import { Type } from '@sinclair/typebox';
import type { Static, TObject, TProperties } from '@sinclair/typebox';
import { ISODate, Nullable } from '../../http/schemas.js';
import { SUMMARY_LEVELS } from './ai/summarizer.js';
import type { KeyFacts, SummaryLevel } from './ai/summarizer.js';
import { ANALYSIS_LIMITS } from './html/limits.js';
import type { AnalysisLimit } from './html/limits.js';
import { MAX_PAGE_URL_LENGTH, PAGE_URL_LENGTH_RULE } from './page-url-rules.js';

/** Open objects: a page may say more than we list, and clients ignore what they do not know (docs/contract.md#versioning). */
const Open = <T extends TProperties>(properties: T, description?: string): TObject<T> =>
  Type.Object(properties, { additionalProperties: true, ...(description === undefined ? {} : { description }) });
const Strings = Type.Array(Type.String());
const AnyObject = Type.Object({}, { additionalProperties: true });
/** A string from a fixed list, typed as that list's union (OpenAPI 3.0 has no `const`, so not a union of literals). */
const OneOf = <T extends string>(values: readonly T[], options: { default?: T; description: string }) =>
  Type.Unsafe<T>({ enum: [...values], ...options, type: 'string' });

export type AiSummary = 'none' | SummaryLevel;

export const MetadataRequest = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_PAGE_URL_LENGTH,
      'x-error': PAGE_URL_LENGTH_RULE,
      description: 'Absolute http or https URL of a public page',
    }),
    aiSummary: Type.Optional(
      OneOf<AiSummary>(['none', ...SUMMARY_LEVELS], {
        default: 'none',
        description:
          '`none` (55 credits); `short`, `medium`, `long` add a summary of about 50, 150 or 300 words and key facts (800 credits)',
      }),
    ),
  },
  // The request body is open: unknown fields are ignored (docs/contract.md#url-metadata).
  { additionalProperties: true },
);
export type MetadataRequest = Static<typeof MetadataRequest>;

const Seo = Open({
  title: Type.String(),
  description: Type.String(),
  keywords: Strings,
  canonical: Type.String(),
  language: Type.String(),
  robots: Type.String({ description: 'meta robots (or X-Robots-Tag for other documents)' }),
  author: Type.String(),
  headings: Open({ h1: Strings, h2: Strings, h3: Strings }),
  alternates: Type.Array(Open({ hreflang: Type.String(), href: Type.String() })),
  wordCount: Type.Integer(),
});

export const Technical = Open({
  statusCode: Type.Integer(),
  finalUrl: Type.String(),
  originalUrl: Type.String(),
  robotsAllowed: Type.Boolean({ description: 'robots.txt of the final URL allows the user agent `coinop`' }),
  isSecure: Type.Boolean(),
  contentType: Type.String(),
  contentLength: Type.Integer({ description: 'Bytes of the body received' }),
  truncated: Type.Boolean({ description: 'The body exceeded the 2 MiB cap and was cut' }),
  redirects: Type.Integer(),
  responseTime: Type.Integer({ description: 'Milliseconds' }),
  analysisTruncated: Type.Boolean({
    description:
      'The page outgrew a bound of the analysis (1 MiB of markup, 100,000 nodes, nesting 256 deep, 500 ms); the groups describe the part read',
  }),
  analysisLimit: Type.Optional(
    OneOf<AnalysisLimit>(ANALYSIS_LIMITS, { description: 'The bound reached first, when analysisTruncated' }),
  ),
  server: Type.String(),
  lastModified: Type.String(),
});
export type Technical = Static<typeof Technical>;

const Links = Open({
  internal: Open({ total: Type.Integer(), urls: Strings }),
  external: Open({ total: Type.Integer(), urls: Strings, domains: Strings }),
  mailto: Strings,
  tel: Strings,
  nofollow: Type.Integer(),
});

const Contact = Open({
  email: Type.String(),
  phone: Type.String(),
  emails: Strings,
  phones: Strings,
  socialProfiles: Strings,
  address: Type.String(),
});

const Icon = Open({
  rel: Type.String(),
  href: Type.String(),
  sizes: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
});
const Media = Open({
  images: Open({
    total: Type.Integer(),
    withoutAlt: Type.Integer(),
    items: Type.Array(
      Open({
        src: Type.String(),
        alt: Type.String(),
        width: Type.Optional(Type.Integer()),
        height: Type.Optional(Type.Integer()),
      }),
    ),
  }),
  videos: Open({ total: Type.Integer(), urls: Strings }),
  audio: Open({ total: Type.Integer(), urls: Strings }),
  icons: Type.Array(Icon),
  logo: Type.String(),
});

const StructuredData = Open({
  types: Strings,
  jsonLd: Type.Array(AnyObject, {
    description: 'JSON-LD entities as published, less URL values of other schemes than http and https',
  }),
  basics: Nullable(AnyObject),
  invalidBlocks: Type.Integer(),
});

const DocumentInfo = Open(
  {
    kind: Type.String({ description: 'image, video, audio, pdf, text, json, xml, font, archive or binary' }),
    mimeType: Type.String(),
    filename: Type.String(),
    size: Nullable(Type.Integer({ description: 'content-length, else bytes received; null when cut at the cap' })),
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
    format: Type.Optional(Type.String()),
    pages: Type.Optional(Type.Integer()),
    wordCount: Type.Optional(Type.Integer()),
  },
  'Present instead of the HTML groups when the URL is not an HTML page',
);

export const AiBlock = Open({
  summary: Open(
    {
      short: Type.Optional(Type.String()),
      medium: Type.Optional(Type.String()),
      long: Type.Optional(Type.String()),
      contentLength: Type.Integer({ description: 'Characters of main text extracted from the page' }),
      truncated: Type.Boolean({ description: 'Only part of the text was summarized' }),
    },
    'The requested level only',
  ),
  keyFacts: Type.Unsafe<KeyFacts>(AnyObject),
  processingTime: Type.Integer({ description: 'Milliseconds' }),
  model: Type.String({ description: '`builtin-extractive` or the provider model' }),
  warning: Type.Optional(Type.String()),
});
export type AiBlock = Static<typeof AiBlock>;

export const MetadataResult = Type.Object({
  success: Type.Boolean(),
  data: Open({
    seo: Seo,
    technical: Technical,
    links: Type.Optional(Links),
    openGraph: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'og:* properties, camel-cased; URL properties resolved, and left out unless http or https',
        },
      ),
    ),
    twitterCard: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'twitter:* properties, camel-cased; URL properties resolved, and left out unless http or https',
        },
      ),
    ),
    social: Type.Optional(
      Type.Object(
        { favicon: Type.String() },
        { additionalProperties: true, description: 'Profile URLs by network (x, linkedin, github, …) and the favicon' },
      ),
    ),
    contact: Type.Optional(Contact),
    media: Type.Optional(Media),
    structuredData: Type.Optional(StructuredData),
    document: Type.Optional(DocumentInfo),
    ai: Type.Optional(AiBlock),
  }),
  timestamp: ISODate,
});

export const MetadataFailure = Type.Object({ success: Type.Literal(false), error: Type.String() });
