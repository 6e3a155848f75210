import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../helpers/server-process.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Children still running, killed after the suite should a case time out (a refusal that never came). */
const running = new Set<ChildProcess>();

/** Runs the entry with `env` until it exits by itself; both streams kept apart. */
async function runToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      SMTP_PORT: '0',
      DNS_SERVERS: '127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  running.delete(child);
  return { code, stdout, stderr };
}

/** Exit code 2 and exactly one line on stderr, naming the variable; no stack trace. */
function expectRefusal(result: { code: number | null; stderr: string }, variable: string, rule: RegExp): void {
  expect(result.stderr, result.stderr).toMatch(new RegExp(`^coinop: (Invalid|Unusable) ${variable}: `));
  expect(result.stderr).toMatch(rule);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.code).toBe(2);
}

// Each case is a process of its own; they run side by side.
describe.concurrent('a bad setting ends the start with one line naming it, exit code 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bad-settings-'));
  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  // One database per case: they run side by side, and one SQLite database is served by one process at a time.
  let cases = 0;
  const ownDatabase = () => `sqlite:${join(dir, `case-${++cases}.db`)}`;
  const plainFile = join(dir, 'plain.txt');
  writeFileSync(plainFile, 'plain text, neither a certificate nor a database\n');
  const missing = join(dir, 'missing.pem');

  it.each([
    [
      'OUTBOUND_ALLOW_CIDRS',
      { OUTBOUND_ALLOW_CIDRS: '10.0.0.0/99' },
      /"10\.0\.0\.0\/99" is not an IP address or a CIDR range/,
    ],
    ['OUTBOUND_CA_FILE', { OUTBOUND_CA_FILE: missing }, /cannot read .*missing\.pem \(ENOENT\)/],
    ['OUTBOUND_CA_FILE', { OUTBOUND_CA_FILE: plainFile }, /holds no PEM certificate/],
    ['SMTP_TLS_CERT', { SMTP_TLS_CERT: missing, SMTP_TLS_KEY: missing }, /cannot read .*missing\.pem/],
    ['SMTP_TLS_CERT', { SMTP_TLS_CERT: plainFile, SMTP_TLS_KEY: plainFile }, /is not a PEM certificate/],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1, proxy.internal' }, /"proxy\.internal" is not an IP address/],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }, /must be an smtp:\/\/ or smtps:\/\/ URL/],
    ['MAIL_DOMAIN', { MAIL_DOMAIN: 'mail example com' }, /is not a domain name/],
    ['NOTIFY_FROM', { NOTIFY_FROM: 'nobody' }, /must be an e-mail address/],
    ['HOST', { HOST: 'not a host' }, /is not an IP address or a host name/],
    [
      'HOST',
      { HOST: '198.51.100.77' },
      /cannot listen on 198\.51\.100\.77:\d+: 198\.51\.100\.77 is not an address of this machine/,
    ],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://u@127.0.0.1:notaport/x' }, /is not a valid postgres:\/\/ URL/],
    ['DATABASE_URL', { DATABASE_URL: `sqlite:${plainFile}` }, /plain\.txt is not an SQLite database/],
    ['DATA_DIR', { DATA_DIR: plainFile }, /cannot create the directory .*plain\.txt/],
    ['READ_CHARGES', { READ_CHARGES: 'sometimes' }, /must be deferred or durable/],
    ['READ_CHARGE_SYNC_MS', { READ_CHARGE_SYNC_MS: '0' }, /must be an integer from 1 to 1000/],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }, /must be an integer from 1 to 1000 \(connections\)/],
  ])(
    '%s (case %#)',
    async (variable, env, rule) => {
      // DATA_DIR only chooses the SQLite file when DATABASE_URL is unset.
      const base: Record<string, string> = variable === 'DATA_DIR' ? {} : { DATABASE_URL: ownDatabase() };
      expectRefusal(
        await runToExit({ ...base, ...(env as Record<string, string>) }),
        variable as string,
        rule as RegExp,
      );
    },
    60_000,
  );

  it('SMTP_HOST not on this machine', async () => {
    const result = await runToExit({
      DATABASE_URL: ownDatabase(),
      SMTP_HOST: '198.51.100.77',
      SMTP_PORT: String(await freePort()),
    });
    expectRefusal(result, 'SMTP_HOST', /cannot listen on 198\.51\.100\.77:\d+/);
  }, 60_000);

  it('a database another process serves: SQLite takes one instance', async () => {
    const shared = ownDatabase();
    const first = await startServerProcess({ DATABASE_URL: shared });
    try {
      expectRefusal(
        await runToExit({ DATABASE_URL: shared }),
        'DATABASE_URL',
        /is served by another coinop process: SQLite takes one instance \(several need PostgreSQL\)$/m,
      );
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    // Once the first has stopped, the next start takes it.
    const next = await startServerProcess({ DATABASE_URL: shared });
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 60_000);

  it('a data folder the process may not write in (no file can be made there, even by root)', async () => {
    expectRefusal(
      await runToExit({ DATA_DIR: '/proc/self' }),
      'DATA_DIR',
      /^coinop: Unusable DATA_DIR: cannot write \/proc\/self\/coinop\.db \((ENOENT|EACCES)\)$/m,
    );
  }, 60_000);

  it('an unreachable database: tried for 10 s, then one line naming DATABASE_URL with host:port/db and never the password', async () => {
    const closed = await freePort();
    const started = Date.now();
    const result = await runToExit({ DATABASE_URL: `postgres://coinop:Hunter2Secret@127.0.0.1:${closed}/coinop_db` });
    expectRefusal(
      result,
      'DATABASE_URL',
      new RegExp(`PostgreSQL 127\\.0\\.0\\.1:${closed}/coinop_db did not answer within 10 s \\(connect ECONNREFUSED`),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(9000);
    expect(result.stdout).toContain('database not answering at start: trying again');
    expect(result.stdout + result.stderr).not.toContain('Hunter2Secret');
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL !== undefined)(
    'a PostgreSQL database that does not exist: refused at once, naming DATABASE_URL',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.pathname = '/coinop_no_such_database';
      const result = await runToExit({ DATABASE_URL: url.toString() });
      expectRefusal(result, 'DATABASE_URL', /refused: database "coinop_no_such_database" does not exist/);
      if (url.password !== '') expect(result.stderr).not.toContain(`:${url.password}@`);
    },
    60_000,
  );

  it.runIf(process.env.TEST_DATABASE_URL !== undefined)(
    'a PostgreSQL search_path naming no schema that exists: refused at once, naming DATABASE_URL',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.searchParams.set('options', '-c search_path=coinop_no_such_schema');
      const result = await runToExit({ DATABASE_URL: url.toString() });
      expectRefusal(result, 'DATABASE_URL', /refused: no schema has been selected to create in/);
    },
    60_000,
  );
});
