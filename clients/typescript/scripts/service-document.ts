import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { serviceDocument as projectDocument } from '../../../scripts/service-document.js';

export const DOCUMENT_FILE = new URL('../openapi.json', import.meta.url);
export const SCHEMA_FILE = new URL('../src/generated/schema.d.ts', import.meta.url);

/** The service's /openapi.json, made in-process by the project's own script (no listener, no network). */
export async function serviceDocument(): Promise<OpenAPI3> {
  return (await projectDocument()) as unknown as OpenAPI3;
}

async function prettified(text: string, file: URL): Promise<string> {
  const options = await resolveConfig(file);
  return format(text, { ...options, filepath: file.pathname });
}

/** The two generated files' contents, formatted as `npm run lint` wants them. */
export async function generatedFiles(document: OpenAPI3): Promise<{ document: string; schema: string }> {
  const schema = astToString(await openapiTS(document, { alphabetize: false }));
  return {
    document: await prettified(JSON.stringify(document, null, 2), DOCUMENT_FILE),
    schema: await prettified(schema, SCHEMA_FILE),
  };
}
