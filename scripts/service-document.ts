/**
 * The OpenAPI document the service serves at /openapi.json, made in-process: an app on a scratch SQLite database
 * with every optional route family on (ADMIN_TOKEN, INBOUND_SECRET), so it lists every operation; nothing listens
 * and nothing leaves the machine. Used by the OpenAPI linter (scripts/openapi-document.ts) and the client's
 * generated types (clients/typescript/scripts/service-document.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { InboundMail } from '../src/features/mail/inbound.service.js';

export async function serviceDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'coinop.db')}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      SMTP_PORT: '0',
      DNS_SERVERS: '127.0.0.1:9',
      ADMIN_TOKEN: 'openapi-document-only-0123456789',
      INBOUND_SECRET: 'openapi-document-only-0123456789',
    });
    const deps = createDeps(config, { logger: pino({ level: 'silent' }) });
    await deps.store.migrate();
    const inbound = await InboundMail.create(deps);
    const app = await buildApp(deps, inbound, { receivesMail: true });
    // The document /openapi.json serves (the same decorator), with any error in its making thrown here.
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    await inbound.close();
    await deps.ledger.flush();
    await deps.outbound.close();
    await deps.store.close();
    return document;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
