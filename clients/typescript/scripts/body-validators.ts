// Ajv's standalone validators of the request bodies the clients check whole (schema-facts.ts, CHECKED_BODIES): when
// `npm run generate -w @coinop/client` bundles service-rules.ts, service-document.ts compiles the service document's
// schemas of those bodies with the service's own Ajv (src/http/validation.ts, createAjv) and puts that code in this
// module's place. This file only declares what the code exports.
import type { SchemaError } from '../../../src/http/validation-wording.js';
import type { CheckedBody } from './schema-facts.js';

/** An Ajv validate function: true, or false with its errors (allErrors off: the first one the service reports). */
export interface BodyValidator {
  (data: unknown): boolean;
  readonly errors?: readonly SchemaError[] | null;
}

export declare const BODY_VALIDATORS: Readonly<Record<CheckedBody, BodyValidator>>;
