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
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSqliteFile } from '../../../src/store/sqlite/sqlite-backup.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { TightenedFile } from '../../../src/store/sqlite/private-files.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** A database as SQLite makes one under the usual umask (0644), in WAL mode with its -wal and -shm present. */
function wideDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE secrets (value TEXT); INSERT INTO secrets VALUES ('signing secret')");
  return db;
}

describe('SQLite files are the owner’s only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-private-'));
  let umask = 0;
  const servers: ServerProcess[] = [];
  beforeAll(() => {
    // The usual umask, under which SQLite's own default gives group and others read access.
    umask = process.umask(0o022);
  });
  afterAll(async () => {
    process.umask(umask);
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a fresh database, its -wal and its -shm with mode 0600', async () => {
    const path = join(dir, 'fresh.db');
    const reports: TightenedFile[] = [];
    const store = openSqliteStore(path, { onWideFile: (file) => reports.push(file) });
    try {
      await store.migrate();
      expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
      expect(reports).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('tightens an existing 0644 database and its -wal and -shm at open, and reports each', async () => {
    const path = join(dir, 'old.db');
    const before = wideDatabase(path); // kept open: its -wal and -shm stay
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o644, 0o644, 0o644]);
    const reports: TightenedFile[] = [];
    const store = openSqliteStore(path, { onWideFile: (file) => reports.push(file) });
    try {
      expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
      expect(reports).toEqual(
        ['', '-wal', '-shm'].map((suffix) => ({ path: `${path}${suffix}`, from: 0o644, tightened: true })),
      );
    } finally {
      await store.close();
      before.close();
    }
  });

  it('says so in the service’s start log', async () => {
    const path = join(dir, 'service.db');
    wideDatabase(path).close();
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${path}` });
    servers.push(server);
    expect(modeOf(path)).toBe(0o600);
    const line = server
      .output()
      .split('\n')
      .find((text) => text.includes('readable by others'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      level: 40,
      file: path,
      msg: expect.stringMatching(/mode 644\): now 600/),
    });
  });

  it('writes a backup 0600 and never through a symbolic link planted at a name it could use', async () => {
    const source = join(dir, 'source.db');
    wideDatabase(source).close();
    const backups = mkdtempSync(join(dir, 'backups-'));
    const target = join(backups, 'backup.db');
    // The names the copy went through before (`<target>.partial-<pid>` and SQLite's files beside it), each a link
    // to a file the attacker wants written: the copy's to a name that does not exist yet (a copy of the secrets
    // made where the attacker can read it), the others' to files that do.
    const planted = `${target}.partial-${process.pid}`;
    const victims: Array<[string, string | undefined]> = [[join(backups, 'stolen.db'), undefined]];
    symlinkSync(join(backups, 'stolen.db'), planted);
    for (const suffix of ['-journal', '-wal', '-shm']) {
      const existing = join(backups, `victim${suffix}.txt`);
      writeFileSync(existing, 'precious');
      symlinkSync(existing, `${planted}${suffix}`);
      victims.push([existing, 'precious']);
    }
    const namesBefore = readdirSync(backups).sort();

    expect((await backupSqliteFile(source, target)).pages).toBeGreaterThan(0);

    for (const [path, content] of victims)
      expect(existsSync(path) ? readFileSync(path, 'utf8') : undefined, path).toBe(content);
    expect(modeOf(target)).toBe(0o600);
    const copy = new Database(target, { readonly: true });
    expect(copy.prepare('SELECT value FROM secrets').pluck().get()).toBe('signing secret');
    copy.close();
    // Nothing left behind but the copy.
    expect(readdirSync(backups).sort()).toEqual([...namesBefore, 'backup.db'].sort());
  });

  it('refuses a target that became a symbolic link while the copy was written, and leaves its target alone', async () => {
    const source = join(dir, 'source2.db');
    wideDatabase(source).close();
    const victim = join(dir, 'victim-final.txt');
    const target = join(dir, 'late-link.db');
    // Planted after any check the caller made: the copy must not replace it nor write through it.
    symlinkSync(victim, target);
    await expect(backupSqliteFile(source, target)).rejects.toThrow(/EEXIST/);
    expect(existsSync(victim)).toBe(false);
    expect(readdirSync(dir).some((name) => name.includes('late-link.db.partial'))).toBe(false);
  });
});
