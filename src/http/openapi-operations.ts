import type { FastifySchema, RouteOptions } from 'fastify';
import type { SwaggerTransformObject } from '@fastify/swagger';
import { errors } from '../errors.js';
import type { MeterSpec } from './metering.js';
import { errorResponses } from './schemas.js';

/** One example exchange of an operation, for the OpenAPI document only (never validated against, never served). */
export interface OperationExample {
  readonly params?: Readonly<Record<string, string>>;
  /** Typed as the parameter is (an integer parameter's example is a number). */
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  readonly body?: unknown;
  /** The body of its 2xx answer. */
  readonly response: unknown;
  /** This route's own wording of an error status, where the catalogue has several (404: `Key Not Found`, …). */
  readonly errors?: Readonly<Partial<Record<number, string | readonly string[]>>>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The cost rule, declared only where the meter's number does not say it all (a computed cost, a refund rule, a charge to another wallet). */
    'x-cost'?: number | string;
    example?: OperationExample;
    /**
     * The body as the document shows it, where the handler reads and checks the body itself rather than a schema
     * (a KV value: raw text whatever its content type). Never validated against.
     */
    documentedBody?: Record<string, unknown>;
  }
}

/** What the route-time transform hands to the whole-document pass; removed from the document there. */
const MARKER = 'x-coinop-operation';
interface Marker {
  readonly metered: boolean;
  readonly example: OperationExample | undefined;
}

interface Media {
  readonly schema?: Record<string, unknown>;
  readonly example?: unknown;
}
interface ResponseObject {
  readonly description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}
interface Parameter {
  readonly name: string;
  readonly in: string;
  required?: boolean;
  schema?: { readonly default?: unknown };
  example?: unknown;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  [MARKER]?: Marker;
}
interface Document {
  components?: Record<string, unknown>;
  paths?: Record<string, Record<string, Operation>>;
}

/** Error statuses whose wording the catalogue fixes (src/errors.ts): the document lists it as the only values. */
const FIXED_WORDING: Readonly<Partial<Record<number, readonly string[]>>> = {
  401: [errors.unauthorized().body],
  402: [errors.insufficientCredits().body],
  403: [errors.forbidden().body],
  404: [errors.notFound().body],
  409: [errors.webhookExists().body],
  410: [errors.deliveryExpired().body],
  413: [errors.payloadTooLarge().body],
  429: [errors.tooManyRequests(1).body],
  500: [errors.internal().body],
  501: [errors.rechargeNotConfigured().body],
};
/** Statuses whose body is a short sentence naming the cause: the document shows one. */
const EXAMPLE_WORDING: Readonly<Partial<Record<number, string>>> = {
  400: errors.invalidField('ttl', 'must be an integer from 0 to 2592000').body,
  502: errors.badGateway('The URL could not be fetched: connection refused').body,
  503: errors.storeUnavailable().body,
};

const COST_HEADERS = {
  XCost: {
    description: 'Credits this call cost (after any refund). On every answer of a metered operation but 401.',
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
  XBalance: {
    description:
      'The wallet balance after this call. On every answer of a metered operation whose wallet balance is known (not 401).',
    schema: { type: 'integer' },
    example: 99,
  },
};

/**
 * The operation's cost for the document, from the meter the route is charged by, so the two cannot drift: the meter's
 * number, or 0 on an unmetered route. A rule the route declares (`x-cost`) must start with the meter's number; a
 * computed cost must be declared.
 */
function documentedCost(
  name: string,
  meter: MeterSpec | undefined,
  declared: number | string | undefined,
): number | string {
  const charged = meter?.cost;
  if (declared === undefined) {
    if (typeof charged === 'function')
      throw new Error(`${name}: a computed cost needs its rule declared as schema['x-cost']`);
    return charged ?? 0;
  }
  if (typeof charged === 'number' && !new RegExp(`^${charged}\\b`).test(String(declared))) {
    throw new Error(`${name}: x-cost ${String(declared)} does not start with the metered cost ${charged}`);
  }
  return declared;
}

function costSentence(cost: number | string): string {
  if (cost === 0) return 'Free: costs 0 credits.';
  if (typeof cost === 'number') return `Costs ${cost} ${cost === 1 ? 'credit' : 'credits'}.`;
  return `Cost in credits: ${cost}.`;
}

/** Per route, as the document is generated: operation cost (x-cost and a sentence), public security, and the marker. */
function transformRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): {
  schema: FastifySchema;
  url: string;
} {
  if (schema === undefined || schema === null || schema.hide === true) return { schema, url };
  const { example, documentedBody, ...rest } = schema;
  const cost = documentedCost(`${String(route.method)} ${url}`, route.config?.meter, rest['x-cost']);
  const marker: Marker = { metered: route.config?.meter !== undefined, example };
  const description = [rest.description, costSentence(cost)]
    .filter((part) => part !== undefined && part !== '')
    .join('\n\n');
  // A free call draws on the wallet's free budget (metering.ts): beyond it, 429.
  const response =
    cost === 0 && marker.metered
      ? { ...(rest.response as Record<number, unknown> | undefined), 429: errorResponses[429] }
      : rest.response;
  // An operation without a token says so (`security: []`) rather than leaving it unsaid.
  return {
    schema: {
      ...rest,
      ...(documentedBody === undefined ? {} : { body: documentedBody }),
      response,
      description,
      security: rest.security ?? [],
      'x-cost': cost,
      [MARKER]: marker,
    } as FastifySchema,
    url,
  };
}

/** A text/plain error answer with the catalogue's wording: its only values where fixed, else one example. */
function errorContent(
  status: number,
  content: Record<string, Media>,
  routeWording: string | readonly string[] | undefined,
): Record<string, Media> {
  const text = content['text/plain'];
  if (text === undefined) return content;
  const wording =
    routeWording === undefined
      ? FIXED_WORDING[status]
      : typeof routeWording === 'string'
        ? [routeWording]
        : routeWording;
  const schema =
    wording !== undefined && (FIXED_WORDING[status] !== undefined || routeWording !== undefined)
      ? { type: 'string', enum: [...wording], example: wording[0] }
      : { type: 'string', example: EXAMPLE_WORDING[status] ?? 'Bad Request' };
  return { ...content, 'text/plain': { ...text, schema } };
}

const withExample = (
  content: Record<string, Media> | undefined,
  example: unknown,
): Record<string, Media> | undefined =>
  content === undefined
    ? undefined
    : Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, example }]));

function completeOperation(operation: Operation): void {
  const marker = operation[MARKER];
  delete operation[MARKER];
  if (marker === undefined) return;
  const example = marker.example;
  let exampleAnswered = false;
  for (const [code, response] of Object.entries(operation.responses ?? {})) {
    const status = Number(code);
    // New objects throughout: the generated responses share schema objects between routes.
    if (marker.metered && status !== 401)
      response.headers = {
        ...response.headers,
        'x-cost': { $ref: '#/components/headers/XCost' },
        'x-balance': { $ref: '#/components/headers/XBalance' },
      };
    if (status >= 400 && response.content !== undefined)
      response.content = errorContent(status, response.content, example?.errors?.[status]);
    if (status >= 200 && status < 300 && example !== undefined && !exampleAnswered) {
      response.content = withExample(response.content, example.response);
      exampleAnswered = true;
    }
  }
  // A parameter with a default may be left out: the schema marks it required only because validation fills it in.
  for (const parameter of operation.parameters ?? [])
    if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
  if (example === undefined) return;
  if (operation.requestBody !== undefined && example.body !== undefined)
    operation.requestBody.content = withExample(operation.requestBody.content, example.body) ?? {};
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === 'path'
        ? example.params?.[parameter.name]
        : parameter.in === 'query'
          ? example.query?.[parameter.name]
          : undefined;
    if (value !== undefined) parameter.example = value;
  }
}

/** Once the document is generated: the shared cost headers, then each operation's headers, error wording and examples. */
const transformDocument: SwaggerTransformObject = (documentObject) => {
  const document = (
    'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject
  ) as Document;
  document.components = { ...document.components, headers: COST_HEADERS };
  for (const item of Object.values(document.paths ?? {}))
    for (const operation of Object.values(item)) completeOperation(operation);
  return document as ReturnType<SwaggerTransformObject>;
};

/** The @fastify/swagger options that complete the document: costs from the routes' meters, cost headers, error wording, examples. */
export function documentOperations() {
  return { transform: transformRoute, transformObject: transformDocument };
}
