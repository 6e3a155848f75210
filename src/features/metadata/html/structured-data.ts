import { attr, textOf } from './markup.js';
import type { ParsedMarkup } from './markup.js';
import { clip, resolveHttpUrl, squash, unique } from './text.js';
import { dropNonHttpUrls } from './url-fields.js';

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
  /** JSON-LD entities (`@graph` flattened), the first few, as published less URLs of other schemes than http(s). */
  jsonLd: JsonObject[];
  basics: StructuredBasics | null;
  /** JSON-LD blocks that did not parse. */
  invalidBlocks: number;
}

const MAX_ENTITIES = 20;
const MAX_BLOCK_CHARS = 200_000;
/** Entities read from all blocks, and JSON values walked to find them. */
const MAX_ENTITIES_READ = 1000;
const MAX_VALUES_VISITED = 100_000;
/** Entities nested deeper are not returned (JSON.stringify and the reply serializer recurse). */
const MAX_JSON_DEPTH = 32;
/** Wrappers followed from a property to its value (`{"name": {"@value": "…"}}`). */
const MAX_HOPS = 8;
const MAX_TEXT_CHARS = 10_000;
const MAX_TYPES_PER_ENTITY = 50;
const MAX_TYPED_ELEMENTS = 1000;
/** The entities returned, serialized, stay under this; the rest are counted in `types` only. */
const MAX_JSON_LD_CHARS = 64 * 1024;
/** Entity types describing who is behind the page, then what the page is. */
const PREFERRED = [
  /^(Organization|Corporation|LocalBusiness|NGO|EducationalOrganization|GovernmentOrganization|OnlineBusiness|OnlineStore|Store)$/,
  /^(WebSite|Person|Product|SoftwareApplication|Brand)$/,
  /./,
];

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function typesOf(entity: JsonObject): string[] {
  const raw = entity['@type'];
  const list = Array.isArray(raw) ? raw.slice(0, MAX_TYPES_PER_ENTITY) : [raw];
  return list
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.replace(/^https?:\/\/schema\.org\//, ''));
}

/** Entities (anything with `@type`) of a JSON-LD value, through arrays and `@graph`, members of a graph first. Iterative: JSON nests deeper than the call stack. */
function flatten(value: unknown, out: JsonObject[]): void {
  type Task = { visit: unknown } | { emit: JsonObject };
  const stack: Task[] = [{ visit: value }];
  for (
    let visited = 0;
    stack.length > 0 && visited < MAX_VALUES_VISITED && out.length < MAX_ENTITIES_READ;
    visited += 1
  ) {
    const task = stack.pop() as Task;
    if ('emit' in task) {
      out.push(task.emit);
      continue;
    }
    const current = task.visit;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ visit: current[i] });
    } else if (isObject(current)) {
      if (current['@type'] !== undefined) stack.push({ emit: current });
      if (Array.isArray(current['@graph'])) stack.push({ visit: current['@graph'] });
    }
  }
}

/** Follows first items of arrays and the `keys` of objects to a scalar, a few steps at most (JSON-LD values may be wrapped). */
function scalarOf(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (let step = 0; step < MAX_HOPS; step += 1) {
    if (Array.isArray(current)) current = current[0];
    else if (isObject(current)) {
      const object = current;
      current = keys.map((key) => object[key]).find((found) => found !== undefined);
    } else return current;
  }
  return undefined;
}

function text(value: unknown): string {
  const scalar = scalarOf(value, ['name', '@value', 'url']);
  if (typeof scalar === 'string') return squash(scalar.slice(0, MAX_TEXT_CHARS));
  if (typeof scalar === 'number') return String(scalar);
  return '';
}

function urlOf(value: unknown, base: URL): string {
  const scalar = scalarOf(value, ['url', 'contentUrl', '@id']);
  return typeof scalar === 'string' ? (resolveHttpUrl(scalar.slice(0, MAX_TEXT_CHARS), base) ?? '') : '';
}

function addressOf(value: unknown): string {
  let current = value;
  for (let step = 0; step < MAX_HOPS && Array.isArray(current); step += 1) current = current[0];
  if (!isObject(current)) return text(current);
  const address = current;
  const parts = ['streetAddress', 'postalCode', 'addressLocality', 'addressRegion', 'addressCountry']
    .map((key) => text(address[key]))
    .filter((part) => part !== '');
  return unique(parts).join(', ');
}

/** Whether `value` nests at most `max` levels (serializing deeper values would overflow the stack). Iterative. */
export function nestsWithin(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let visited = 0; stack.length > 0; visited += 1) {
    if (visited > MAX_VALUES_VISITED) return false;
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return false;
    for (const member of Object.values(current)) stack.push([member, depth + 1]);
  }
  return true;
}

function basicsOf(entity: JsonObject, base: URL): StructuredBasics {
  const sameAs = (Array.isArray(entity.sameAs) ? entity.sameAs.slice(0, 100) : [entity.sameAs])
    .map((value) => urlOf(value, base))
    .filter((url) => url !== '');
  const contact: unknown = Array.isArray(entity.contactPoint)
    ? (entity.contactPoint as unknown[])[0]
    : entity.contactPoint;
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

/** Tokens of the `itemtype` or `typeof` attributes of the first holders. */
function attributeTypes(page: ParsedMarkup, name: 'itemtype' | 'typeof'): string[] {
  return page
    .withAttribute(name)
    .slice(0, MAX_TYPED_ELEMENTS)
    .flatMap((element) => (attr(element, name, 1000) ?? '').split(/\s+/));
}

/** JSON-LD entities, microdata and RDFa types of a page. */
export function extractStructuredData(page: ParsedMarkup, base: URL): StructuredData {
  const entities: JsonObject[] = [];
  let invalidBlocks = 0;
  for (const element of page.elements('script')) {
    if ((attr(element, 'type', 100) ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    const source = textOf(element, MAX_BLOCK_CHARS + 1).trim();
    if (source === '' || source.length > MAX_BLOCK_CHARS) continue;
    try {
      flatten(JSON.parse(source), entities);
    } catch {
      invalidBlocks += 1;
    }
  }
  const types = unique(
    [...entities.flatMap(typesOf), ...attributeTypes(page, 'itemtype'), ...attributeTypes(page, 'typeof')]
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
    // Too deep to serialize safely: counted in `types`, not returned. Returned as published, less its URLs of
    // other schemes than http(s); one too large to look through whole is not returned either.
    if (!nestsWithin(entity, MAX_JSON_DEPTH) || !dropNonHttpUrls(entity, MAX_VALUES_VISITED)) continue;
    size += JSON.stringify(entity).length;
    if (size > MAX_JSON_LD_CHARS) break;
    jsonLd.push(entity);
  }
  return { types, jsonLd, basics, invalidBlocks };
}
