/**
 * A PostgreSQL server of the test's own (initdb + pg_ctl on a free port, trust auth, its own data
 * directory), for tests that stop and restart the database under a running service:
 *
 *   const pg = await startPrivatePostgres();        // undefined when no PostgreSQL binaries are installed
 *   env.DATABASE_URL = pg.url;
 *   await pg.stop();                                // pg_ctl stop -m fast
 *   await pg.stop('immediate');                     // every backend quits at once, no lock released first
 *   await pg.start();
 *   await pg.destroy();
 *
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  readonly url: string;
  readonly port: number;
  /** The data directory (postmaster.pid names the server's process). */
  readonly dataDir: string;
  start(): Promise<void>;
  /**
   * 'fast' (default): backends roll back and exit one by one, so a transaction waiting on a lock held by
   * another may still get it and commit during the stop. 'immediate': all quit without cleanup, nothing commits.
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'pg_ctl')));
  return found;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres | undefined> {
  const bin = binDir();
  if (bin === undefined) return undefined;
  const asRoot = userInfo().uid === 0;
  const base = mkdtempSync(join(tmpdir(), 'coinop-pg-'));
  const data = join(base, 'data');
  chmodSync(base, 0o777);
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const uid = Number(stdout.trim());
    chownSync(base, uid, uid);
  }
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(base, 'server.log'), '-w', '-t', '30', 'start']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir: data,
    start,
    stop: async (mode: 'fast' | 'immediate' = 'fast') => {
      await as('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
    },
    destroy: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(base, { recursive: true, force: true });
    },
  };
}
