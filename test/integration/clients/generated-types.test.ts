import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  DOCUMENT_FILE,
  RULES_FILE,
  RULES_TYPES_FILE,
  SCHEMA_FILE,
  generatedFiles,
  serviceDocument,
} from '../../../clients/typescript/scripts/service-document.js';

const REGENERATE =
  'the service document or its rules changed: run `npm run generate -w @coinop/client` and commit clients/typescript/openapi.json and src/generated/';

it("the SDK's committed document, generated types and input rules are what the service's current document and rule modules generate", async () => {
  const fresh = await generatedFiles(await serviceDocument());
  expect(readFileSync(DOCUMENT_FILE, 'utf8'), REGENERATE).toBe(fresh.document);
  expect(readFileSync(SCHEMA_FILE, 'utf8'), REGENERATE).toBe(fresh.schema);
  expect(readFileSync(RULES_FILE, 'utf8'), REGENERATE).toBe(fresh.rules);
  expect(readFileSync(RULES_TYPES_FILE, 'utf8'), REGENERATE).toBe(fresh.rulesTypes);
});
