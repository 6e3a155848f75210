import { loadBuffer } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { extractContact } from './contact.js';
import type { ContactData } from './contact.js';
import { extractLinks } from './links.js';
import type { LinksData } from './links.js';
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
function documentBase($: CheerioAPI, url: URL): URL {
  const declared = resolveHttpUrl($('base[href]').first().attr('href'), url);
  return declared === undefined ? url : new URL(declared);
}

/** Every metadata group of an HTML page. Pure: no I/O. */
export function analyzeHtml(input: HtmlInput): HtmlAnalysis {
  const $ = loadBuffer(input.body, { encoding: { transportLayerEncodingLabel: input.charset, defaultEncoding: 'utf-8' } });
  const base = documentBase($, input.url);
  const seo = extractSeo($, base, input.contentLanguage);
  const openGraph = extractOpenGraph($, base);
  const twitterCard = extractTwitterCard($, base);
  const structuredData = extractStructuredData($, base);
  const links = extractLinks($, base, input.url);
  const basics = structuredData.basics;
  const profiles = extractProfiles([...(basics?.sameAs ?? []), ...links.external.urls]);
  const icons = extractIcons($, base);
  const text = visibleText($);
  const contact = extractContact({
    mailto: links.mailto,
    tel: links.tel,
    text,
    jsonLdEmail: basics?.email ?? '',
    jsonLdTelephone: basics?.telephone ?? '',
    jsonLdAddress: basics?.address ?? '',
    profiles,
  });
  const logo = basics?.logo || (resolveHttpUrl(metaContent($, 'og:logo'), base) ?? '');
  const media = extractMedia($, base, icons, logo);
  const social: SocialData = { ...profiles, favicon: faviconOf(icons, input.url) };
  // Last: it strips the document down to its content.
  const content = mainText($);
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
  };
}
