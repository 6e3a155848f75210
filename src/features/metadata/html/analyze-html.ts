import { extractContact } from './contact.js';
import type { ContactData } from './contact.js';
import { extractLinks } from './links.js';
import type { LinksData } from './links.js';
import { AnalysisBudget } from './limits.js';
import type { AnalysisLimit } from './limits.js';
import { decodeMarkup, parseMarkup } from './markup.js';
import type { ParsedMarkup } from './markup.js';
import { extractMedia } from './media.js';
import type { MediaData } from './media.js';
import { countWords, mainText, visibleText } from './page-text.js';
import { extractSeo, metaContent } from './seo.js';
import type { SeoData } from './seo.js';
import { extractIcons, extractOpenGraph, extractProfiles, extractTwitterCard, faviconOf } from './social.js';
import type { OpenGraph, TwitterCard } from './social.js';
import { extractStructuredData } from './structured-data.js';
import type { StructuredData } from './structured-data.js';
import { resolveHttpUrl } from './text.js';

/** Social profiles by network (`x`, `linkedin`, `github`, …) plus the favicon. */
export type SocialData = Record<string, string> & { favicon: string };

export interface HtmlAnalysis {
  seo: SeoData & { wordCount: number };
  openGraph: OpenGraph;
  twitterCard: TwitterCard;
  social: SocialData;
  contact: ContactData;
  media: MediaData;
  links: LinksData;
  structuredData: StructuredData;
  /** The main content as text (boilerplate stripped), for summaries. */
  mainText: string;
  /** Set when a bound of the analysis (limits.ts) was reached: the groups describe only part of the page. */
  limit?: AnalysisLimit;
}

export interface HtmlInput {
  body: Buffer;
  /** Where the document was finally fetched from. */
  url: URL;
  /** `charset` of the content-type header, if any. */
  charset?: string;
  /** The content-language header, if any. */
  contentLanguage?: string;
}

/** Links resolve against `<base href>` when the page declares a usable one. */
function documentBase(page: ParsedMarkup, url: URL): URL {
  const declared = resolveHttpUrl(
    page.elements('base').find((element) => element.attribs.href !== undefined)?.attribs.href,
    url,
  );
  return declared === undefined ? url : new URL(declared);
}

/** Every metadata group of an HTML page, within the bounds of limits.ts. Pure: no I/O. */
export function analyzeHtml(input: HtmlInput): HtmlAnalysis {
  const budget = new AnalysisBudget();
  const page = parseMarkup(decodeMarkup(input.body, input.charset, budget), budget);
  const base = documentBase(page, input.url);
  const seo = extractSeo(page, base, input.contentLanguage);
  const openGraph = extractOpenGraph(page, base);
  const twitterCard = extractTwitterCard(page, base);
  const structuredData = extractStructuredData(page, base);
  const links = extractLinks(page, base, input.url);
  const basics = structuredData.basics;
  const profiles = extractProfiles([...(basics?.sameAs ?? []), ...links.external.urls]);
  const icons = extractIcons(page, base);
  const text = visibleText(page, budget);
  const contact = extractContact({
    mailto: links.mailto,
    tel: links.tel,
    text,
    jsonLdEmail: basics?.email ?? '',
    jsonLdTelephone: basics?.telephone ?? '',
    jsonLdAddress: basics?.address ?? '',
    profiles,
  });
  const logo = basics?.logo || (resolveHttpUrl(metaContent(page, 'og:logo'), base) ?? '');
  const media = extractMedia(page, base, icons, logo);
  const social: SocialData = { ...profiles, favicon: faviconOf(icons, input.url) };
  const content = mainText(page, budget, text);
  return {
    seo: { ...seo, wordCount: countWords(text) },
    openGraph,
    twitterCard,
    social,
    contact,
    media,
    links,
    structuredData,
    mainText: content,
    ...(budget.limit === undefined ? {} : { limit: budget.limit }),
  };
}
