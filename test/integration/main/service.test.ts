import { readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { afterEach, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { createService } from '../../../src/service.js';
import type { ServiceOptions } from '../../../src/service.js';
import type { Deps } from '../../../src/deps.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { StoreKind } from '../../helpers/stores.js';

const SECRET = 'inbound-secret-for-service-test';

/** Spool folders this process holds in the temp directory (coinop-spool-<host>-<pid>-<random>). */
const ownSpoolFolders = (): string[] =>
  readdirSync(tmpdir()).filter(
    (name) => name.startsWith('coinop-spool-') && name.split('-')[3] === String(process.pid),
  );

/** The first line a TCP server sends, or the connection error's code (ECONNREFUSED once it is closed). */
async function greeting(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(String(error.code)));
  });
}

/** A read on the store (SQLite throws at once once closed, PostgreSQL rejects). */
const storeAnswers = async (deps: Deps): Promise<unknown> => deps.store.read.get('SELECT 1 AS one');

async function service(kind: StoreKind, options: ServiceOptions = {}) {
  const database = await scratchDatabase(kind);
  const config = loadConfig({
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_PORT: '0',
    DNS_SERVERS: '127.0.0.1:9',
    INBOUND_SECRET: SECRET,
  });
  return {
    database,
    service: await createService(config, { ...options, deps: { logger: pino({ level: 'silent' }), ...options.deps } }),
  };
}

describeEachStore('the composition root', (kind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('runs HTTP, the relay and SMTP on one inbound pipeline, and stopped, closes them all and the store', async () => {
    const { database, service: running } = await service(kind, { smtp: { port: 0, host: '127.0.0.1' } });
    cleanups.push(() => database.drop());
    const before = ownSpoolFolders();
    await running.start();
    const { http, smtp } = running.ports();
    // One pipeline, hence one spool folder, for the listener and the relay route together.
    expect(ownSpoolFolders().filter((name) => !before.includes(name))).toHaveLength(1);
    expect((await fetch(`http://127.0.0.1:${http}/healthz`)).status).toBe(200);
    const relay = await fetch(`http://127.0.0.1:${http}/inbound/raw?recipient=nobody@example.test`, {
      method: 'POST',
      headers: { 'x-inbound-secret': SECRET, 'content-type': 'message/rfc822' },
      body: 'From: a@sender.test\r\n\r\nhello\r\n',
    });
    expect(relay.status).toBe(400);
    expect(smtp).not.toBeNull();
    expect(await greeting(Number(smtp))).toMatch(/^220 /);

    await running.stop();
    expect(await greeting(http)).toBe('ECONNREFUSED');
    expect(await greeting(Number(smtp))).toBe('ECONNREFUSED');
    expect(ownSpoolFolders().filter((name) => !before.includes(name))).toEqual([]);
    await expect(storeAnswers(running.deps)).rejects.toThrow();
  });

  it('stops what it had started when a start fails (SMTP port taken), leaving no spool folder and the store closed', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const { database, service: running } = await service(kind, {
      smtp: { port: (taken.address() as AddressInfo).port, host: '127.0.0.1' },
    });
    cleanups.push(() => database.drop());
    const before = ownSpoolFolders();
    await expect(running.start()).rejects.toThrow(/EADDRINUSE/);
    expect(ownSpoolFolders().filter((name) => !before.includes(name))).toEqual([]);
    await expect(storeAnswers(running.deps)).rejects.toThrow();
  });
});
