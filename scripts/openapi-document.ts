/**
 * Writes the OpenAPI document the service serves at /openapi.json (scripts/service-document.ts) to a file
 * (default: stdout), for the OpenAPI linter (`npm run lint:openapi`).
 * Usage: tsx scripts/openapi-document.ts [out.json]
 */
import { writeFileSync } from 'node:fs';
import { serviceDocument } from './service-document.js';

const out = process.argv[2];
const document = `${JSON.stringify(await serviceDocument(), null, 2)}\n`;
if (out === undefined) process.stdout.write(document);
else writeFileSync(out, document);
