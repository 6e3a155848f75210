import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';

/** The spool folder a process made in the temp directory (named coinop-spool-<host>-<pid>-<random>). */
function spoolFolderOf(server: ServerProcess): string {
  const folder = readdirSync(tmpdir()).find(
    (name) => name.startsWith('coinop-spool-') && name.split('-')[3] === String(server.child.pid),
  );
  expect(folder, `no spool folder for pid ${server.child.pid}`).toBeDefined();
  return join(tmpdir(), String(folder));
}

// About the temp directory, not the store: one engine (SQLite in a private directory) is enough. The temp
// directory is the shared one on purpose: folders of other live processes there must survive a start too.
describe('spool folders after a crash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-leftovers-test-'));
  const running: ServerProcess[] = [];
  afterAll(async () => {
    // A graceful stop removes a process's own spool folder.
    for (const server of running) server.child.kill('SIGTERM');
    await Promise.all(running.map((server) => server.exited));
    rmSync(dir, { recursive: true, force: true });
  });

  // INBOUND_SECRET makes the process open its inbound pipeline, hence its spool folder.
  const start = async (name: string) => {
    const server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      TMPDIR: tmpdir(),
      INBOUND_SECRET: 'inbound-secret-for-spool-test',
    });
    running.push(server);
    return server;
  };

  it('removes at start the folder of a process killed with -9, and not the folder of one still running', async () => {
    const [crashed, neighbour] = await Promise.all([start('crashed'), start('neighbour')]);
    const crashedFolder = spoolFolderOf(crashed);
    const neighbourFolder = spoolFolderOf(neighbour);
    // A message it was receiving when it died.
    writeFileSync(join(crashedFolder, 'unfinished.eml'), 'From: a@sender.test\r\n\r\nhalf a mess');
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    expect(existsSync(crashedFolder)).toBe(true);

    await start('restarted');
    expect(existsSync(crashedFolder)).toBe(false);
    expect(existsSync(neighbourFolder)).toBe(true);
  }, 90_000);
});
