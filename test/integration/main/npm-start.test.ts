import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, groupAlive, startWithNpmStart } from '../../helpers/npm-start.js';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The README's start command, as a supervisor runs it: it signals the one process it started (npm), never the group.
describe('npm start under a supervisor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-npm-start-'));
  let child: ChildProcess | undefined;
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => {
    // Detached into its own process group: whatever is left of it goes, whatever the test's outcome.
    if (child?.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops gracefully on SIGTERM to the npm process: the port closes within 12 s and buffered call-log rows are written', async () => {
    const database = join(dir, 'coinop.db');
    const started = await startWithNpmStart({
      DATABASE_URL: `sqlite:${database}`,
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY_MS: '3000',
    });
    child = started.child;
    const { url, port, exited } = started;
    const output = started.output;

    const token = await (
      await fetch(`${url}/token`, {
        method: 'POST',
        body: 'token=new',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).text();
    const stored = await fetch(`${url}/kv/start/greeting`, {
      method: 'POST',
      body: 'hello',
      headers: { 'x-token': token },
    });
    expect(stored.status).toBe(200);

    const signalled = Date.now();
    process.kill(child.pid as number, 'SIGTERM');
    while (await portOpen(port)) {
      expect(Date.now() - signalled, `port still open:\n${output()}`).toBeLessThan(12_000);
      await sleep(100);
    }
    expect(await exited).toBe(0);
    // The server itself stopped, not only npm: nothing of the group is left serving.
    for (let i = 0; i < 50 && groupAlive(child.pid as number); i++) await sleep(100);
    expect(groupAlive(child.pid as number)).toBe(false);
    expect(output()).toContain('"msg":"stopped"');

    // The KV call's log row was buffered in memory at the signal; the stop flushed it.
    const db = new Database(database, { readonly: true });
    try {
      const rows = db
        .prepare("SELECT method, path, status_code, cost FROM logs WHERE path = '/kv/start/greeting'")
        .all();
      expect(rows).toEqual([{ method: 'POST', path: '/kv/start/greeting', status_code: 200, cost: 1 }]);
    } finally {
      db.close();
    }
  }, 240_000);
});
