// Writes openapi.json (the service's document) and src/generated/schema.d.ts (its types): `npm run generate -w @coinop/client`.
import { writeFileSync } from 'node:fs';
import { DOCUMENT_FILE, SCHEMA_FILE, generatedFiles, serviceDocument } from './service-document.js';

const files = await generatedFiles(await serviceDocument());
writeFileSync(DOCUMENT_FILE, files.document);
writeFileSync(SCHEMA_FILE, files.schema);
console.log(`wrote ${DOCUMENT_FILE.pathname} and ${SCHEMA_FILE.pathname}`);
