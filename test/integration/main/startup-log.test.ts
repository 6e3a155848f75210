import { afterAll, describe, expect, it } from 'vitest';
import { NO_INBOUND_MAIL } from '../../../src/features/webhooks/webhooks.service.js';
import { freePort, startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

const WARN = 40;

function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function startedLine(server: ServerProcess): LogLine {
  const line = logLines(server.output()).find((entry) => entry.msg === 'coinop started');
  if (line === undefined) throw new Error(`no startup line:\n${server.output()}`);
  return line;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

async function newToken(url: string): Promise<string> {
  const response = await fetch(`${url}/token`, {
    method: 'POST',
    body: 'token=new',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return response.text();
}

function webhookCall(url: string, token: string, method: string, path: string, body: unknown) {
  return fetch(`${url}${path}`, {
    method,
    body: JSON.stringify(body),
    headers: { 'x-token': token, 'content-type': 'application/json' },
  });
}

/** An address the outbound guard lets through (OUTBOUND_ALLOW_CIDRS below); nothing is delivered in these tests. */
const CALLBACK = 'https://127.0.0.1:9/hook';
const SCHEDULE = { cron: '0 * * * *', timezone: 'UTC' };

describe('the startup log and mailbox webhooks', () => {
  const databases: ScratchDatabase[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) await stop(server);
    for (const database of databases) await database.drop();
  });
  const start = async (env: Record<string, string>, kind: 'sqlite' | 'postgres' = 'sqlite') => {
    const database = await scratchDatabase(kind);
    databases.push(database);
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      ...env,
    });
    servers.push(server);
    return { server, database };
  };

  it('without the SMTP listener or the relay: says so, and refuses to hand out mailbox addresses (400, plain text)', async () => {
    const { server, database } = await start({});
    const port = new URL(server.url).port;
    expect(startedLine(server)).toMatchObject({
      data: `SQLite ${database.url.slice('sqlite:'.length)}`,
      http: `http://127.0.0.1:${port}`,
      docs: `http://127.0.0.1:${port}/docs`,
      smtp: 'off',
      inboundRelay: 'off',
      outboundMail: 'off (notification e-mails are logged, not sent)',
      ai: 'off (built-in summarizer)',
      stripe: 'off',
      operatorApi: 'off',
    });
    expect(logLines(server.output()).filter((line) => line.level === WARN)).toEqual([]);

    const token = await newToken(server.url);
    const mailbox = await webhookCall(server.url, token, 'POST', '/webhook', { webhookId: 'inbox', url: CALLBACK });
    expect([mailbox.status, mailbox.headers.get('content-type'), await mailbox.text()]).toEqual([
      400,
      'text/plain; charset=utf-8',
      NO_INBOUND_MAIL,
    ]);

    // Scheduled webhooks need no mail; turning one into a mailbox would hand out an address, so that is refused too.
    const scheduled = await webhookCall(server.url, token, 'POST', '/webhook', {
      webhookId: 'cron',
      url: CALLBACK,
      schedule: SCHEDULE,
    });
    expect(scheduled.status).toBe(200);
    expect(await scheduled.json()).not.toHaveProperty('email');
    const toMailbox = await webhookCall(server.url, token, 'PATCH', '/webhook/cron', { schedule: null });
    expect([toMailbox.status, await toMailbox.text()]).toEqual([400, NO_INBOUND_MAIL]);
    const replaced = await webhookCall(server.url, token, 'PUT', '/webhook/cron', { url: CALLBACK });
    expect([replaced.status, await replaced.text()]).toEqual([400, NO_INBOUND_MAIL]);
    const unchanged = await fetch(`${server.url}/webhook/cron`, { headers: { 'x-token': token } });
    expect(await unchanged.json()).toHaveProperty('schedule');
    await stop(server);
  }, 90_000);

  it('with the SMTP listener on MAIL_DOMAIN localhost: warns, names every optional part that is on, hands out mailboxes', async () => {
    const smtpPort = await freePort();
    const { server } = await start({
      SMTP_PORT: String(smtpPort),
      SMTP_HOST: '127.0.0.1',
      PUBLIC_URL: 'https://api.example.com',
      SMTP_URL: 'smtp://relay-user:Relay-Pa55word@mail.example.com:587',
      AI_BASE_URL: 'http://ai-user:Ai-Pa55word@127.0.0.1:9/v1',
      AI_MODEL: 'small-model',
      STRIPE_SECRET_KEY: 'sk_test_startup_log',
      STRIPE_WEBHOOK_SECRET: 'whsec_startup_log',
      STRIPE_PRICE_1M: 'price_1m',
      ADMIN_TOKEN: 'admin-token-of-startup-test',
    });
    expect(startedLine(server)).toMatchObject({
      docs: 'https://api.example.com/docs',
      smtp: `127.0.0.1:${smtpPort} for @localhost`,
      inboundRelay: 'off',
      outboundMail: 'smtp://mail.example.com:587 from coinop@localhost',
      ai: 'http://127.0.0.1:9 model small-model',
      stripe: 'on (Checkout)',
      operatorApi: 'on',
    });
    const warnings = logLines(server.output()).filter((line) => line.level === WARN);
    expect(warnings.map((line) => line.msg)).toEqual([
      expect.stringMatching(
        /^MAIL_DOMAIN is localhost: mailbox addresses r_…@localhost cannot receive mail from other machines/,
      ),
    ]);
    expect(server.output()).not.toMatch(/Pa55word|sk_test_startup_log|whsec_startup_log|admin-token-of-startup-test/);

    const token = await newToken(server.url);
    const mailbox = await webhookCall(server.url, token, 'POST', '/webhook', { webhookId: 'inbox', url: CALLBACK });
    expect(mailbox.status).toBe(200);
    expect(((await mailbox.json()) as { email: string }).email).toMatch(/^r_[a-z2-7]{16}@localhost$/);
    await stop(server);
  }, 90_000);

  it.each(process.env.TEST_DATABASE_URL === undefined ? ['sqlite' as const] : ['sqlite' as const, 'postgres' as const])(
    'with only the inbound relay (%s): hands out mailboxes, and shows the data location without credentials',
    async (kind) => {
      const { server, database } = await start(
        { INBOUND_SECRET: 'relay-secret-of-startup-test', MAIL_DOMAIN: 'mail.example.com' },
        kind,
      );
      const line = startedLine(server);
      expect(line).toMatchObject({ smtp: 'off', inboundRelay: 'on (POST /inbound/raw)' });
      if (kind === 'postgres') {
        const url = new URL(database.url);
        expect(line.data).toBe(`PostgreSQL ${url.hostname}:${url.port === '' ? '5432' : url.port}${url.pathname}`);
        if (url.password !== '') expect(server.output()).not.toContain(`:${url.password}@`);
        expect(server.output()).not.toContain(database.url);
      }
      expect(logLines(server.output()).filter((entry) => entry.level === WARN)).toEqual([]);
      const token = await newToken(server.url);
      const mailbox = await webhookCall(server.url, token, 'POST', '/webhook', { webhookId: 'inbox', url: CALLBACK });
      expect(mailbox.status).toBe(200);
      expect(((await mailbox.json()) as { email: string }).email).toMatch(/@mail\.example\.com$/);
      await stop(server);
    },
    90_000,
  );
});
