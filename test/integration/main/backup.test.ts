import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { fundedToken } from '../../helpers/funded-token.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN_TOKEN = 'admin-token-for-backup-test';

/** Runs the backup command (`npm run backup -- <file>` runs its build, dist/backup.js) from the sources. */
async function runBackup(
  env: Record<string, string>,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/backup.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

const modeOf = (path: string): number => statSync(path).mode & 0o777;

async function stop(server: ServerProcess | undefined): Promise<void> {
  if (server === undefined || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('npm run backup on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-backup-'));
  const agent = new Agent({ connections: 16 });
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map(stop));
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while the service serves and writes, and a fresh instance on the copy reads the data back', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'live.db')}`, ADMIN_TOKEN, OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' };
    const live = await startServerProcess(env);
    servers.push(live);
    const token = await fundedToken(live.url, { adminToken: ADMIN_TOKEN, amount: 1_000_000, dispatcher: agent });
    const call = async (
      url: string,
      path: string,
      init: { method?: 'GET' | 'POST'; body?: string; json?: boolean } = {},
    ) => {
      const headers: Record<string, string> = { 'x-token': token };
      if (init.json === true) headers['content-type'] = 'application/json';
      const response = await request(`${url}${path}`, {
        method: init.method ?? 'GET',
        body: init.body,
        headers,
        dispatcher: agent,
      });
      return { status: response.statusCode, body: await response.body.text() };
    };

    for (let i = 0; i < 20; i++)
      expect((await call(live.url, `/kv/kept/k${i}`, { method: 'POST', body: `value ${i}` })).status).toBe(200);
    const webhook = {
      webhookId: 'nightly',
      url: 'https://127.0.0.1:9/hook',
      schedule: { cron: '0 3 * * *', timezone: 'UTC', active: false },
    };
    expect(
      (await call(live.url, '/webhook', { method: 'POST', body: JSON.stringify(webhook), json: true })).status,
    ).toBe(200);

    // A long read elsewhere holds SQLite's checkpoints back: every write from here on is only in the WAL, which a
    // copy of the database file alone would miss.
    const longRead = new Database(join(dir, 'live.db'), { readonly: true });
    longRead.exec('BEGIN');
    longRead.prepare('SELECT count(*) FROM sqlite_master').get();

    // Four lanes each write their keys in order, so a consistent copy holds, per lane, exactly a prefix of them.
    const LANES = 4;
    const acknowledged: number[][] = Array.from({ length: LANES }, () => []);
    let loading = true;
    const lane = async (index: number) => {
      for (let n = 0; loading; n++) {
        const answer = await call(live.url, `/kv/load/l${index}-${n}`, { method: 'POST', body: `load ${index} ${n}` });
        expect(answer.status).toBe(200);
        acknowledged[index]?.push(n);
      }
    };
    const load = Promise.all(Array.from({ length: LANES }, (_, index) => lane(index)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const beforeBackup = acknowledged.map((keys) => keys.length);
    const backupFile = join(dir, 'copy.db');
    const backup = await runBackup({ DATABASE_URL: env.DATABASE_URL }, [backupFile]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    loading = false;
    await load;
    longRead.exec('COMMIT');
    longRead.close();

    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^coinop backup: copied \S+live\.db \(\d+ pages\) to \S+copy\.db\n$/);
    expect(Math.min(...beforeBackup)).toBeGreaterThan(0);
    expect(acknowledged.every((keys, index) => keys.length > (beforeBackup[index] ?? 0))).toBe(true); // writes went on after it

    // One self-contained file (no -wal beside it) that SQLite finds whole, the owner's only like the database.
    expect(existsSync(`${backupFile}-wal`)).toBe(false);
    expect(modeOf(backupFile)).toBe(0o600);
    expect(['', '-wal', '-shm'].map((suffix) => modeOf(join(dir, `live.db${suffix}`)))).toEqual([0o600, 0o600, 0o600]);
    expect(readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
    const copy = new Database(backupFile, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();

    const restored = await startServerProcess({ ...env, DATABASE_URL: `sqlite:${backupFile}` });
    servers.push(restored);
    for (let i = 0; i < 20; i++)
      expect(await call(restored.url, `/kv/kept/k${i}`)).toEqual({ status: 200, body: `value ${i}` });
    const hook = await call(restored.url, '/webhook/nightly');
    expect(hook.status).toBe(200);
    expect(JSON.parse(hook.body)).toMatchObject({
      webhookId: 'nightly',
      webhook: webhook.url,
      schedule: { cron: '0 3 * * *', active: false },
    });

    for (let index = 0; index < LANES; index++) {
      const written = acknowledged[index] ?? [];
      const present: number[] = [];
      for (const n of written) {
        const answer = await call(restored.url, `/kv/load/l${index}-${n}`);
        if (answer.status === 200) {
          expect(answer.body).toBe(`load ${index} ${n}`);
          present.push(n);
        } else expect(answer).toEqual({ status: 404, body: 'Key Not Found' });
      }
      // Everything answered before the backup began is in it, and what it holds is a prefix of the lane's writes.
      expect(present.length).toBeGreaterThanOrEqual(beforeBackup[index] ?? 0);
      expect(present).toEqual(written.slice(0, present.length));
    }
  });

  it('refuses with one line and a non-zero exit: no file named, a file that exists, no folder for it, a PostgreSQL DATABASE_URL, no database', async () => {
    const database = `sqlite:${join(dir, 'refusals.db')}`;
    new Database(join(dir, 'refusals.db')).close();
    const taken = join(dir, 'taken.db');
    writeFileSync(taken, 'an earlier backup');
    // Links to a file the copy must not replace, and to a name it must not create.
    const linkToTaken = join(dir, 'link-to-taken.db');
    symlinkSync(taken, linkToTaken);
    const dangling = join(dir, 'dangling.db');
    symlinkSync(join(dir, 'made-through-link.db'), dangling);
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ DATABASE_URL: database }, [], /^coinop backup: usage: npm run backup -- <file>\n$/],
      [{ DATABASE_URL: database }, ['--help'], /^coinop backup: usage: npm run backup -- <file>\n$/],
      [{ DATABASE_URL: database }, ['-h'], /^coinop backup: usage: npm run backup -- <file>\n$/],
      [{ DATABASE_URL: database }, [taken], /^coinop backup: .*taken\.db already exists: name a new file\n$/],
      [
        { DATABASE_URL: database },
        [linkToTaken],
        /^coinop backup: .*link-to-taken\.db is a symbolic link: name a new file\n$/,
      ],
      [{ DATABASE_URL: database }, [dangling], /^coinop backup: .*dangling\.db is a symbolic link: name a new file\n$/],
      [
        { DATABASE_URL: database },
        [join(dir, 'no-such-folder', 'copy.db')],
        /^coinop backup: no folder .*no-such-folder: create it first, or name a file in one that exists\n$/,
      ],
      [
        { DATABASE_URL: database },
        [join(taken, 'deeper', 'copy.db')],
        /^coinop backup: no folder .*taken\.db\/deeper: create it first, or name a file in one that exists\n$/,
      ],
      [
        { DATABASE_URL: 'postgres://coinop@127.0.0.1:1/coinop' },
        [join(dir, 'pg.db')],
        /^coinop backup: DATABASE_URL is PostgreSQL: back it up with pg_dump .*\n$/,
      ],
      [
        { DATABASE_URL: `sqlite:${join(dir, 'absent.db')}` },
        [join(dir, 'none.db')],
        /^coinop backup: no SQLite database at .*absent\.db .*\n$/,
      ],
      [{ DATABASE_URL: 'mysql://x' }, [join(dir, 'none.db')], /^coinop backup: Invalid DATABASE_URL: .*\n$/],
    ];
    for (const [env, args, message] of cases) {
      const result = await runBackup(env, args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(join(dir, 'pg.db'))).toBe(false);
    expect(existsSync(join(ROOT, '--help'))).toBe(false);
    expect(existsSync(join(ROOT, '-h'))).toBe(false);
    expect(readFileSync(taken, 'utf8')).toBe('an earlier backup');
    expect(existsSync(join(dir, 'made-through-link.db'))).toBe(false);
    expect(existsSync(join(dir, 'absent.db'))).toBe(false);
  });
});
