import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { cutText } from '../lib/cut-text.js';
import { EMAIL_ADDRESS } from '../lib/email-address.js';

// ajv-formats ships CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The Ajv the routes validate with; exported so tests that call a feature directly apply the same schema rules and defaults. */
export function createAjv(coerceTypes: boolean): Ajv {
  // removeAdditional off: an unknown field is an error the caller should hear about, not silently dropped.
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    verbose: true,
  });
  addFormats(ajv);
  // The same pattern as ajv-formats' own, from the module the console's forms test addresses with.
  ajv.addFormat('email', EMAIL_ADDRESS);
  return ajv;
}

/**
 * Bodies are validated strictly (a string is never coerced to a number or an array);
 * query strings and path parameters arrive as text and are coerced to their declared types.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv(false);
  const coercing = createAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as FastifySchema & object),
  );
  app.setSchemaErrorFormatter(
    (validationErrors, dataVar) =>
      new Error(describeValidationError(validationErrors[0] as ErrorObject | undefined, dataVar)),
  );
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
export function describeValidationError(error: ErrorObject | undefined, dataVar: string): string {
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
