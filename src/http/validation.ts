import { Ajv } from 'ajv';
import type { CodeOptions, ErrorObject } from 'ajv';
import { describeValidationError } from './validation-wording.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { EMAIL_ADDRESS } from '../lib/email-address.js';

export { describeValidationError } from './validation-wording.js';

// ajv-formats ships CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The Ajv the routes validate with; exported so tests that call a feature directly apply the same schema rules and
 * defaults, and so the client's generator compiles the bodies it checks with them (`code`: its standalone source).
 */
export function createAjv(coerceTypes: boolean, code?: CodeOptions): Ajv {
  // removeAdditional off: an unknown field is an error the caller should hear about, not silently dropped.
  const ajv = new Ajv({
    ...(code === undefined ? {} : { code }),
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
