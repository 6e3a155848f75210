import type { CheerioAPI } from 'cheerio';
import { clip, resolveHttpUrl, squash, unique } from './text.js';

type JsonObject = Record<string, unknown>;

/** The few JSON-LD facts most pages carry, from the entity that best describes the site or page. */
export interface StructuredBasics {
  type: string;
  name: string;
  url: string;
  logo: string;
  description: string;
  sameAs: string[];
  email: string;
  telephone: string;
  address: string;
  foundingDate: string;
}

export interface StructuredData {
  /** Every `@type` found in JSON-LD, microdata (`itemtype`) and RDFa (`typeof`). */
  types: string[];
  /** JSON-LD entities (`@graph` flattened), the first few, as published. */
  jsonLd: JsonObject[];
  basics: StructuredBasics | null;
  /** JSON-LD blocks that did not parse. */
  invalidBlocks: number;
}

const MAX_ENTITIES = 20;
const MAX_BLOCK_CHARS = 200_000;
/** The entities returned, serialized, stay under this; the rest are counted in `types` only. */
const MAX_JSON_LD_CHARS = 64 * 1024;
/** Entity types describing who is behind the page, then what the page is. */
const PREFERRED = [
  /^(Organization|Corporation|LocalBusiness|NGO|EducationalOrganization|GovernmentOrganization|OnlineBusiness|OnlineStore|Store)$/,
  /^(WebSite|Person|Product|SoftwareApplication|Brand)$/,
  /./,
];

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function typesOf(entity: JsonObject): string[] {
  const raw = entity['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((type): type is string => typeof type === 'string').map((type) => type.replace(/^https?:\/\/schema\.org\//, ''));
}

function flatten(value: unknown, out: JsonObject[]): void {
  if (Array.isArray(value)) {
    for (const item of value) flatten(item, out);
    return;
  }
  if (!isObject(value)) return;
  if (Array.isArray(value['@graph'])) flatten(value['@graph'], out);
  if (value['@type'] !== undefined) out.push(value);
}

function text(value: unknown): string {
  if (typeof value === 'string') return squash(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (isObject(value)) return text(value.name ?? value['@value'] ?? value.url);
  return '';
}

function urlOf(value: unknown, base: URL): string {
  if (Array.isArray(value)) return urlOf(value[0], base);
  if (isObject(value)) return urlOf(value.url ?? value.contentUrl ?? value['@id'], base);
  return typeof value === 'string' ? (resolveHttpUrl(value, base) ?? '') : '';
}

function addressOf(value: unknown): string {
  if (Array.isArray(value)) return addressOf(value[0]);
  if (!isObject(value)) return text(value);
  const parts = ['streetAddress', 'postalCode', 'addressLocality', 'addressRegion', 'addressCountry'].map((key) => text(value[key])).filter((part) => part !== '');
  return unique(parts).join(', ');
}

function basicsOf(entity: JsonObject, base: URL): StructuredBasics {
  const sameAs = (Array.isArray(entity.sameAs) ? entity.sameAs : [entity.sameAs]).map((value) => urlOf(value, base)).filter((url) => url !== '');
  const contact = Array.isArray(entity.contactPoint) ? entity.contactPoint[0] : entity.contactPoint;
  const contactPoint = isObject(contact) ? contact : {};
  return {
    type: typesOf(entity)[0] ?? '',
    name: clip(text(entity.name ?? entity.headline), 300),
    url: urlOf(entity.url, base),
    logo: urlOf(entity.logo ?? entity.image, base),
    description: clip(text(entity.description), 1000),
    sameAs: unique(sameAs).slice(0, 30),
    email: text(entity.email ?? contactPoint.email).replace(/^mailto:/i, ''),
    telephone: text(entity.telephone ?? contactPoint.telephone),
    address: addressOf(entity.address ?? entity.location),
    foundingDate: text(entity.foundingDate),
  };
}

/** JSON-LD entities, microdata and RDFa types of a page. */
export function extractStructuredData($: CheerioAPI, base: URL): StructuredData {
  const entities: JsonObject[] = [];
  let invalidBlocks = 0;
  $('script[type]').each((_i, element) => {
    if (($(element).attr('type') ?? '').trim().toLowerCase() !== 'application/ld+json') return;
    const source = $(element).text().trim();
    if (source === '' || source.length > MAX_BLOCK_CHARS) return;
    try {
      flatten(JSON.parse(source), entities);
    } catch {
      invalidBlocks += 1;
    }
  });
  const microdata = $('[itemtype]').map((_i, element) => ($(element).attr('itemtype') ?? '').split(/\s+/)).get();
  const rdfa = $('[typeof]').map((_i, element) => ($(element).attr('typeof') ?? '').split(/\s+/)).get();
  const types = unique(
    [...entities.flatMap(typesOf), ...microdata, ...rdfa]
      .map((type) => type.trim().replace(/^https?:\/\/schema\.org\//, ''))
      .filter((type) => type !== ''),
  ).slice(0, 50);
  let basics: StructuredBasics | null = null;
  for (const rule of PREFERRED) {
    const entity = entities.find((candidate) => typesOf(candidate).some((type) => rule.test(type)));
    if (entity !== undefined) {
      basics = basicsOf(entity, base);
      break;
    }
  }
  const jsonLd: JsonObject[] = [];
  let size = 0;
  for (const entity of entities.slice(0, MAX_ENTITIES)) {
    size += JSON.stringify(entity).length;
    if (size > MAX_JSON_LD_CHARS) break;
    jsonLd.push(entity);
  }
  return { types, jsonLd, basics, invalidBlocks };
}
