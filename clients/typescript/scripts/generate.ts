// Writes openapi.json (the service's document), src/generated/schema.d.ts (its types) and src/generated/service-rules.js
// with its .d.ts (the service's input rules): `npm run generate -w @coinop/client`.
import { writeFileSync } from 'node:fs';
import {
  DOCUMENT_FILE,
  RULES_FILE,
  RULES_TYPES_FILE,
  SCHEMA_FILE,
  generatedFiles,
  serviceDocument,
} from './service-document.js';

const files = await generatedFiles(await serviceDocument());
writeFileSync(DOCUMENT_FILE, files.document);
writeFileSync(SCHEMA_FILE, files.schema);
writeFileSync(RULES_FILE, files.rules);
writeFileSync(RULES_TYPES_FILE, files.rulesTypes);
console.log(
  `wrote ${[DOCUMENT_FILE, SCHEMA_FILE, RULES_FILE, RULES_TYPES_FILE].map((file) => file.pathname).join(', ')}`,
);
