import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServerToExit } from '../../helpers/server-process.js';

// About the process, not the store: one engine (SQLite in a private directory) is enough.
describe('a start that fails part way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-failed-start-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'coinop-failed-start-tmp-'));
  const taken = createServer();
  afterAll(async () => {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('stops what it had started (its spool folder is removed) and exits 1 when the SMTP port is taken', async () => {
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { code, stderr } = await runServerToExit({
      DATABASE_URL: `sqlite:${join(dir, 'coinop.db')}`,
      // A private temp directory: the spool folder the inbound pipeline made is the only one there.
      TMPDIR: spoolDir,
      SMTP_PORT: String((taken.address() as AddressInfo).port),
      SMTP_HOST: '127.0.0.1',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^coinop: failed to start: .*EADDRINUSE/);
    expect(readdirSync(spoolDir).filter((name) => name.startsWith('coinop-spool-'))).toEqual([]);
  }, 60_000);
});
