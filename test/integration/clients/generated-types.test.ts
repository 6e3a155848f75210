import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DOCUMENT_FILE, SCHEMA_FILE, generatedFiles, serviceDocument } from '../../../clients/typescript/scripts/service-document.js';

const REGENERATE =
  'the service document changed: run `npm run generate -w @coinop/client` and commit clients/typescript/openapi.json and src/generated/schema.d.ts';

it("the SDK's committed document and generated types are what the service's current /openapi.json generates", async () => {
  const fresh = await generatedFiles(await serviceDocument());
  expect(readFileSync(DOCUMENT_FILE, 'utf8'), REGENERATE).toBe(fresh.document);
  expect(readFileSync(SCHEMA_FILE, 'utf8'), REGENERATE).toBe(fresh.schema);
});
