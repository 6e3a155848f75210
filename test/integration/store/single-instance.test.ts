import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { holdSqliteInstanceLock } from '../../../src/store/single-instance.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'coinop-single-instance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another process holding `database`'s instance lock until killed; resolves once it holds it. */
async function otherProcessHolding(database: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { holdSqliteInstanceLock } from './src/store/single-instance.ts';
       console.log(holdSqliteInstanceLock(${JSON.stringify(database)}) ? 'held' : 'refused');
       setInterval(() => {}, 1000);`,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '--import tsx' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const said = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(String(chunk).trim())),
  );
  return { said, stop: () => child.kill('SIGKILL') };
}

it('refuses at once, without waiting, a database another process serves; takes it once that process is gone', async () => {
  const database = join(dir, 'coinop.db');
  const other = await otherProcessHolding(database);
  try {
    expect(other.said).toBe('held');
    const started = performance.now();
    expect(holdSqliteInstanceLock(database)).toBe(false);
    // No busy wait (SQLite's would be 5 s by default): the lock held elsewhere is the answer.
    expect(performance.now() - started).toBeLessThan(1000);
  } finally {
    other.stop();
  }
  await expect.poll(() => holdSqliteInstanceLock(database), { timeout: 5000 }).toBe(true);
});
