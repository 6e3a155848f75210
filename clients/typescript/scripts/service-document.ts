import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { loadConfig } from '../../../src/config.js';
import { createDeps } from '../../../src/deps.js';
import { buildApp } from '../../../src/app.js';

export const DOCUMENT_FILE = new URL('../openapi.json', import.meta.url);
export const SCHEMA_FILE = new URL('../src/generated/schema.d.ts', import.meta.url);

/**
 * The service's /openapi.json, made in-process (no listener, no network): an app on a scratch SQLite file, with
 * the operator API on so its paths are typed too, and the SMTP listener off.
 */
export async function serviceDocument(): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'coinop.db')}`,
      LOG_LEVEL: 'silent',
      SMTP_PORT: '0',
      DNS_SERVERS: '127.0.0.1:9',
      ADMIN_TOKEN: 'openapi-document-generation',
    });
    const deps = createDeps(config, { logger: pino({ level: 'silent' }) });
    await deps.store.migrate();
    const app = await buildApp(deps, undefined, { receivesMail: true });
    await app.ready();
    const document = app.swagger() as OpenAPI3;
    await app.close();
    await deps.ledger.flush();
    await deps.outbound.close();
    await deps.store.close();
    return document;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
