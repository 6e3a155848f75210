// The few input rules that live only in the route schemas, read from the service's OpenAPI document when the client's
// rules are generated (service-rules.ts uses them as SCHEMA_FACTS), and the whole body schemas the generator compiles
// into the bundle's validators (service-document.ts).
import { RESERVED_WEBHOOK_IDS } from '../../../src/features/webhooks/webhook-rules.js';

export interface StringFact {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** The schema's own wording of the rule (`x-error`), used as the service's 400 uses it. */
  readonly error?: string;
}

/** The operations whose whole JSON body the clients check against the service's schema before sending. */
export const CHECKED_BODIES = ['webhookCreate', 'webhookReplace', 'webhookUpdate', 'settingsUpdate'] as const;
export type CheckedBody = (typeof CHECKED_BODIES)[number];

export interface SchemaFacts {
  readonly domains: { readonly minItems: number; readonly maxItems: number; readonly error: string };
  /** The fields a DNS lookup's body may have (it is closed: any other is `Unknown field: …`). */
  readonly dnsFields: readonly string[];
  /** url-to-metadata's `aiSummary` levels. */
  readonly aiSummaryLevels: readonly string[];
  readonly domain: StringFact;
  readonly webhookId: StringFact;
  readonly reservedWebhookIds: readonly string[];
  readonly webhookUrl: StringFact;
  readonly metadataUrl: StringFact;
  /** Each operation's price in credits when it succeeds: the leading number of its `x-cost`. */
  readonly costs: Readonly<Record<string, number>>;
  /** What url-to-metadata costs with an AI summary (its `x-cost`: `55, or 800 with aiSummary …`). */
  readonly metadataSummaryCost: number;
}

type Json = Record<string, unknown>;

function at(value: unknown, ...path: string[]): Json {
  let node = value;
  for (const step of path) {
    if (typeof node !== 'object' || node === null || !(step in node))
      throw new Error(`the service document has no ${path.join('.')}`);
    node = (node as Json)[step];
  }
  return node as Json;
}

function stringFact(schema: Json): StringFact {
  const pick = <K extends keyof StringFact>(key: K, name: string, type: string): Partial<StringFact> =>
    typeof schema[name] === type ? ({ [key]: schema[name] } as Partial<StringFact>) : {};
  return {
    ...pick('minLength', 'minLength', 'number'),
    ...pick('maxLength', 'maxLength', 'number'),
    ...pick('pattern', 'pattern', 'string'),
    ...pick('error', 'x-error', 'string'),
  };
}

const jsonBody = (document: unknown, path: string, method: string): Json =>
  at(document, 'paths', path, method, 'requestBody', 'content', 'application/json', 'schema', 'properties');

function operations(document: unknown): { operationId: string; cost: number | undefined }[] {
  return Object.values(at(document, 'paths')).flatMap((item) =>
    Object.values(item as Json).flatMap((operation) => {
      const { operationId, 'x-cost': cost } = (operation ?? {}) as Json;
      if (typeof operationId !== 'string') return [];
      const leading = /^\d+/.exec(typeof cost === 'string' || typeof cost === 'number' ? String(cost) : '')?.[0];
      return [{ operationId, cost: leading === undefined ? undefined : Number(leading) }];
    }),
  );
}

/** The JSON request body schema of the operation `operationId`. */
function bodySchema(document: unknown, operationId: string): Json {
  for (const item of Object.values(at(document, 'paths')))
    for (const operation of Object.values(item as Json))
      if ((operation as Json | null)?.operationId === operationId)
        return at(operation, 'requestBody', 'content', 'application/json', 'schema');
  throw new Error(`the service document has no operation ${operationId}`);
}

/** The request body schemas of CHECKED_BODIES, as the document gives them: what the generator compiles with Ajv. */
export function bodySchemas(document: unknown): Record<CheckedBody, Json> {
  return Object.fromEntries(
    CHECKED_BODIES.map((operationId) => [operationId, bodySchema(document, operationId)]),
  ) as Record<CheckedBody, Json>;
}

export function schemaFacts(document: unknown): SchemaFacts {
  const domains = at(jsonBody(document, '/dns-lookup', 'post'), 'domains');
  const webhook = jsonBody(document, '/webhook', 'post');
  return {
    domains: {
      minItems: Number(domains.minItems),
      maxItems: Number(domains.maxItems),
      error: String(domains['x-error']),
    },
    domain: stringFact(at(domains, 'items')),
    dnsFields: Object.keys(jsonBody(document, '/dns-lookup', 'post')),
    aiSummaryLevels:
      (at(jsonBody(document, '/url-to-metadata', 'post'), 'aiSummary').enum as string[] | undefined) ?? [],
    webhookId: stringFact(at(webhook, 'webhookId')),
    reservedWebhookIds: [...RESERVED_WEBHOOK_IDS],
    webhookUrl: stringFact(at(webhook, 'url')),
    metadataUrl: stringFact(at(jsonBody(document, '/url-to-metadata', 'post'), 'url')),
    costs: Object.fromEntries(
      operations(document).flatMap(({ operationId, cost }) => (cost === undefined ? [] : [[operationId, cost]])),
    ),
    metadataSummaryCost: Number(
      /or (\d+) with aiSummary/.exec(String(at(document, 'paths', '/url-to-metadata', 'post')['x-cost']))?.[1],
    ),
  };
}
