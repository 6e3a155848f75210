/**
 * How a schema's first failed rule reads in a 400 body (docs/contract.md#errors). Apart from Ajv (only its error's
 * shape is read), so the clients' checks of the same schemas, bundled from here, word a refusal as the service does.
 */
import { cutText } from '../lib/cut-text.js';

/** The parts of an Ajv `ErrorObject` the wording reads. */
export interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: object;
  readonly parentSchema?: unknown;
  readonly message?: string | undefined;
}

/** Longest unknown field or parameter name repeated in a 400 body. */
const MAX_ECHOED_NAME = 64;

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('')
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

/** One short sentence naming the field and the rule, as docs/contract.md#errors asks for 400 bodies. */
export function describeValidationError(error: SchemaError | undefined, dataVar: string): string {
  if (error === undefined) return `Invalid ${dataVar}`;
  const field = fieldName(error.instancePath);
  const custom = (error.parentSchema as { 'x-error'?: string } | undefined)?.['x-error'];
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `Missing required field: ${join(field, String(params.missingProperty))}`;
    case 'additionalProperties': {
      // The name is the caller's: echoed bounded.
      const name = cutText(String(params.additionalProperty), MAX_ECHOED_NAME);
      return dataVar === 'querystring' ? `Unknown query parameter: ${name}` : `Unknown field: ${join(field, name)}`;
    }
    default:
      break;
  }
  const name = field === '' ? (dataVar === 'body' ? 'body' : dataVar) : field;
  if (custom !== undefined) return `Invalid ${name}: ${custom}`;
  // A query parameter is text unless it was given twice (`?type=kv&type=token` reads as a list): say that.
  if (dataVar === 'querystring' && error.keyword === 'type' && params.type === 'string')
    return `Invalid ${name}: must be given once`;
  if (field === '' && dataVar === 'body' && error.keyword === 'type')
    return `Invalid body: must be a JSON ${String(params.type)}`;
  if (error.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[])
      .filter((value) => value !== '')
      .map(String)
      .join(', ');
    return `Invalid ${name}: must be one of ${allowed}`;
  }
  const rule = RULE_WORDING[error.keyword]?.(params);
  return `Invalid ${name}: ${rule ?? error.message ?? 'is not valid'}`;
}

/** Our wording of the size rules, as the handlers' own checks word them (Ajv's is `must NOT have more than 10 properties`). */
const RULE_WORDING: Readonly<Record<string, (params: Record<string, unknown>) => string>> = {
  maxLength: (params) => `must be at most ${String(params.limit)} characters`,
  minLength: (params) => `must be at least ${String(params.limit)} characters`,
  maxProperties: (params) => `at most ${String(params.limit)} keys`,
  maxItems: (params) => `at most ${String(params.limit)} items`,
  minItems: (params) => `at least ${String(params.limit)} items`,
};
