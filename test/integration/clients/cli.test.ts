import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { ADMIN_TOKEN, useLiveService } from './live-service.js';

const PACKAGE = fileURLToPath(new URL('../../../clients/typescript/', import.meta.url));
const CLI = join(PACKAGE, 'dist', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `coinop` in a child process (asynchronously: the service answering it lives in this process). */
function run(command: string, args: readonly string[], env: Record<string, string>, cwd = PACKAGE): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// The tests run what the package's `bin` runs: dist/cli.js, built from the current sources first.
beforeAll(async () => {
  const build = await run(process.execPath, [join(PACKAGE, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {});
  expect(build, build.stdout).toMatchObject({ code: 0 });
}, 120_000);

describeEachStore('the coinop CLI against a live instance', (kind) => {
  const service = useLiveService(kind);
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'coinop-cli-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  /** The CLI with a fresh home (its config file there) and COINOP_URL set; `env` adds or overrides. */
  const coinop = (args: readonly string[], env: Record<string, string> = {}) =>
    run(process.execPath, [CLI, ...args], { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: service.url(), ...env });

  it('token new --save writes the config file that later commands read; balance then says 99', async () => {
    const created = await coinop(['token', 'new', '--save']);
    expect(created).toMatchObject({ code: 0 });
    const token = created.stdout.trim();
    expect(token).toMatch(/^\S{10,}$/);
    const file = join(home, 'config', 'coinop', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual({ url: service.url(), token });
    expect(statSync(file).mode & 0o077).toBe(0);

    const balance = await coinop(['balance']);
    expect(balance).toMatchObject({ code: 0, stdout: '99\n' });
    expect(balance.stderr).toBe('(cost 1, balance 99)\n');
  });

  it('kv set and get print the answer; --json prints data, cost and balance for scripts', async () => {
    const token = await service.app().createToken(50);
    expect(await coinop(['kv', 'set', 'cli', 'greeting', 'hello there', '--ttl', '60'], { COINOP_TOKEN: token })).toMatchObject({ code: 0, stdout: 'OK\n' });
    expect(await coinop(['kv', 'get', 'cli', 'greeting'], { COINOP_TOKEN: token })).toMatchObject({ code: 0, stdout: 'hello there\n' });
    const json = await coinop(['kv', 'get', 'cli', 'greeting', '--json', '--token', token]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({ data: 'hello there', cost: 1, balance: 47 });
    expect(json.stderr).toBe('');
  });

  it('kv ls prints a table of keys with their bytes (where the next page starts on stderr); --json gives keys and cursor', async () => {
    const token = await service.app().createToken(50);
    for (const key of ['beta', 'alpha', 'gamma', 'other']) await coinop(['kv', 'set', 'cli-ls', key, 'vé', '--ttl', '60'], { COINOP_TOKEN: token });
    const page = await coinop(['kv', 'ls', 'cli-ls', '--limit', '2'], { COINOP_TOKEN: token });
    expect(page.code).toBe(0);
    const lines = page.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+EXPIRES\s+BYTES$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['alpha', 'beta']);
    expect(lines[1]).toMatch(/^alpha\s+\d{4}-\d\d-\d\dT\S+\s+3$/);
    expect(page.stderr).toBe('(cost 1, balance 45)\nmore keys: add --cursor "beta"\n');
    const rest = await coinop(['kv', 'ls', 'cli-ls', '-n', '2', '--cursor', 'beta'], { COINOP_TOKEN: token });
    expect(
      rest.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['gamma', 'other']);
    expect(rest.stderr).toBe('(cost 1, balance 44)\n');
    const json = await coinop(['kv', 'ls', 'cli-ls', '--prefix', 'o', '--json'], { COINOP_TOKEN: token });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toMatchObject({ data: { keys: [{ key: 'other', size: 3 }], cursor: null }, cost: 1, balance: 43 });
    expect(await coinop(['kv', 'ls', 'cli-ls', '--prefix', 'zz'], { COINOP_TOKEN: token })).toMatchObject({ code: 0, stdout: '(no keys)\n' });
    expect((await coinop(['kv', 'ls', 'reserved-x'], { COINOP_TOKEN: token })).code).toBe(5);
    expect((await coinop(['kv', 'ls', 'cli-ls', '--limit', '101'], { COINOP_TOKEN: token })).code).toBe(5);
    expect((await coinop(['kv', 'ls'], { COINOP_TOKEN: token })).code).toBe(1);
  });

  it('kv buckets prints a table of buckets with their keys and bytes, a page at a time; --json gives buckets and cursor', async () => {
    const token = await service.app().createToken(50);
    expect(await coinop(['kv', 'buckets'], { COINOP_TOKEN: token })).toMatchObject({ code: 0, stdout: '(no buckets)\n' });
    for (const [bucket, key] of [
      ['photos', 'a'],
      ['photos', 'b'],
      ['notes', 'a'],
      ['zebra', 'a'],
    ])
      await coinop(['kv', 'set', bucket ?? '', key ?? '', 'abc'], { COINOP_TOKEN: token });
    const page = await coinop(['kv', 'buckets', '-n', '2'], { COINOP_TOKEN: token });
    expect(page.code).toBe(0);
    expect(page.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^BUCKET\s+KEYS\s+BYTES$/),
      expect.stringMatching(/^notes\s+1\s+3$/),
      expect.stringMatching(/^photos\s+2\s+6$/),
    ]);
    expect(page.stderr).toBe('(cost 1, balance 44)\nmore buckets: add --cursor "photos"\n');
    const json = await coinop(['kv', 'buckets', '--cursor', 'photos', '--json'], { COINOP_TOKEN: token });
    expect(JSON.parse(json.stdout)).toStrictEqual({
      data: { buckets: [{ bucket: 'zebra', keys: 1, size: 3, capped: false }], cursor: null },
      cost: 1,
      balance: 43,
    });
    expect((await coinop(['kv', 'buckets', '--prefix', 'p', '--json'], { COINOP_TOKEN: token })).stdout).toContain('"photos"');
    expect((await coinop(['kv', 'buckets', 'photos'], { COINOP_TOKEN: token })).code).toBe(1);
    expect((await coinop(['kv', 'buckets', '--limit', '0'], { COINOP_TOKEN: token })).code).toBe(5);
  });

  it('exit codes say what failed: 2 for 401, 3 for 402, 4 for 404, 5 for 400, 1 for usage, 6 when nothing answers', async () => {
    const unauthorized = await coinop(['kv', 'get', 'cli', 'k'], { COINOP_TOKEN: 'not-a-token-of-this-service' });
    expect(unauthorized).toMatchObject({ code: 2, stdout: '' });
    expect(unauthorized.stderr).toContain('Unauthorized');

    const broke = await coinop(['kv', 'get', 'cli', 'k'], { COINOP_TOKEN: await service.app().createToken(0) });
    expect(broke.code).toBe(3);
    expect(broke.stderr).toContain('Insufficient credits');

    const token = await service.app().createToken(50);
    const missing = await coinop(['kv', 'get', 'cli', 'never-set'], { COINOP_TOKEN: token });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Key Not Found');
    expect((await coinop(['kv', 'set', 'reserved-cli', 'k', 'v'], { COINOP_TOKEN: token })).code).toBe(5);
    expect((await coinop(['kv', 'frobnicate'], { COINOP_TOKEN: token })).code).toBe(1);
    expect((await coinop(['kv', 'get', 'cli', 'k', '--no-such-option'], { COINOP_TOKEN: token })).code).toBe(1);
    expect((await coinop(['balance'], { COINOP_TOKEN: token, COINOP_URL: 'http://127.0.0.1:9' })).code).toBe(6);
  });

  it('logs prints a table of the calls, filtered by --type; --json gives the entries', async () => {
    const token = await service.app().createToken(50);
    await coinop(['kv', 'set', 'cli', 'logged', 'v'], { COINOP_TOKEN: token });
    await coinop(['balance'], { COINOP_TOKEN: token });
    const table = await coinop(['logs', '--type', 'kv'], { COINOP_TOKEN: token });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+METHOD\s+PATH\s+TYPE\s+STATUS\s+COST\s+BALANCE/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/POST\s+\/kv\/cli\/logged\s+kv\s+200\s+1\s+49/);

    const json = JSON.parse((await coinop(['logs', '-n', '10', '--json'], { COINOP_TOKEN: token })).stdout);
    expect(json.cost).toBe(0);
    // Newest first: the logs call above (free, category token), balance, the key set.
    expect(json.data.logs.map((entry: { endpoint: string; path: string }) => [entry.endpoint, entry.path.split('?')[0]])).toStrictEqual([
      ['token', '/token/logs'],
      ['token', '/token'],
      ['kv', '/kv/cli/logged'],
    ]);
  });

  it('logs --follow prints each new call as it is logged, without its own log reads, until stopped', async () => {
    const token = await service.app().createToken(50);
    const follower = spawn(process.execPath, [CLI, 'logs', '--follow'], {
      cwd: PACKAGE,
      env: { PATH: process.env.PATH ?? '', HOME: home, COINOP_URL: service.url(), COINOP_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    follower.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const until = async (text: string) => {
      for (const deadline = Date.now() + 15_000; !stdout.includes(text); await new Promise((resolve) => setTimeout(resolve, 50)))
        if (Date.now() > deadline) throw new Error(`no ${text} in: ${stdout}`);
    };
    try {
      await until('TIME');
      const set = await service.app().inject({ method: 'POST', url: '/kv/cli/followed', payload: 'v', headers: { 'x-token': token } });
      expect(set.statusCode).toBe(200);
      await until('/kv/cli/followed');
      expect(stdout.split('\n').filter((line) => line.includes('/kv/cli/followed'))).toHaveLength(1);
      expect(stdout).toMatch(/POST\s+\/kv\/cli\/followed\s+kv\s+200\s+1\s+49/);
    } finally {
      follower.kill();
    }
    // The first read (made before the table was printed) is the only /token/logs entry shown: none.
    expect(stdout).not.toContain('/token/logs');
  });

  it('dns prints the records as a table, with no progress indicator when stderr is not a terminal', async () => {
    const token = await service.app().createToken(50);
    const answer = await coinop(['dns', 'example.test', '--types', 'A'], { COINOP_TOKEN: token });
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/^DOMAIN\s+TYPE\s+TTL\s+VALUE\nexample\.test\s+A\s+300\s+192\.0\.2\.10\n$/);
    expect(answer.stderr).toBe('(cost 5, balance 45)\n');
  });

  it('dns shows a progress indicator on stderr when it is a terminal, and clears it before the table', async () => {
    const token = await service.app().createToken(50);
    // script(1) (util-linux, in every Debian) runs the CLI on a pseudo-terminal; --types A on a zone the loopback server answers.
    const command = `'${process.execPath}' '${CLI}' dns example.test --types A`;
    const answer = await run('script', ['-qec', command, '/dev/null'], { HOME: home, COINOP_URL: service.url(), COINOP_TOKEN: token, TERM: 'dumb' });
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('looking up');
    expect(answer.stdout).toContain('\r\x1b[2K');
    expect(answer.stdout).toMatch(/example\.test\s+A\s+300\s+192\.0\.2\.10/);
  });

  it('admin credit and admin wallets use ADMIN_TOKEN; without it the command is a usage error', async () => {
    const token = await service.app().createToken(5);
    const credited = await coinop(['admin', 'credit', token, '20', '--json'], { ADMIN_TOKEN });
    expect(credited.code).toBe(0);
    expect(JSON.parse(credited.stdout).data).toStrictEqual({ hash: sha256Hex(token), wallet: 25 });
    const wallet = await coinop(['admin', 'wallets', sha256Hex(token)], { ADMIN_TOKEN });
    expect(wallet.stdout).toMatch(/^wallet\s+25$/m);
    expect((await coinop(['admin', 'wallets', token], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).code).toBe(2);
    expect((await coinop(['admin', 'wallets', token])).code).toBe(1);
  });
});
