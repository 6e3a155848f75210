import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { ADMIN_TOKEN, useLiveService } from './live-service.js';
import { CLI, PACKAGE, buildClient, run } from './run-cli.js';

/** A date as the CLI prints it for people. */
const WHEN = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC';

// The tests run what the package's `bin` runs: dist/cli.js, built from the current sources first.
beforeAll(async () => {
  const build = await buildClient();
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
    run(process.execPath, [CLI, ...args], {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      COINOP_URL: service.url(),
      ...env,
    });

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
    expect(
      await coinop(['kv', 'set', 'cli', 'greeting', 'hello there', '--ttl', '60'], { COINOP_TOKEN: token }),
    ).toMatchObject({ code: 0, stdout: 'OK\n' });
    expect(await coinop(['kv', 'get', 'cli', 'greeting'], { COINOP_TOKEN: token })).toMatchObject({
      code: 0,
      stdout: 'hello there\n',
    });
    const json = await coinop(['kv', 'get', 'cli', 'greeting', '--json', '--token', token]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({ data: 'hello there', cost: 1, balance: 47 });
    expect(json.stderr).toBe('');
  });

  it('options every command takes may come before the command word; after -- an argument stays an argument', async () => {
    const token = await service.app().createToken(50);
    const elsewhere = { COINOP_URL: 'http://127.0.0.1:9' }; // the options below must win over it
    const set = await coinop(
      ['--url', service.url(), `--token=${token}`, 'kv', 'set', 'cli', 'flag', '--', '--json'],
      elsewhere,
    );
    expect(set).toMatchObject({ code: 0, stdout: 'OK\n' });
    const json = await coinop(
      ['--json', '--url', service.url(), '--token', token, 'kv', 'get', 'cli', 'flag'],
      elsewhere,
    );
    expect(JSON.parse(json.stdout)).toStrictEqual({ data: '--json', cost: 1, balance: 48 });

    expect(await coinop(['--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: coinop /) });
    expect(await coinop(['--url'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^coinop: --url needs a value\n/),
    });
    expect(await coinop(['--verbose', 'kv'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^coinop: unknown option before the command: --verbose\n/),
    });
  });

  it('a failure answered as JSON (URL metadata) is reported by its error, with its charge', async () => {
    const token = await service.app().createToken(100);
    const refused = await coinop(['meta', 'https://10.1.2.3/page'], { COINOP_TOKEN: token });
    expect(refused).toMatchObject({ code: 5, stdout: '' });
    expect(refused.stderr).toMatch(
      /^coinop meta: BadRequest: 400: Invalid url: refused address[^\n{]*\n\(cost 1, balance 99\)\n$/,
    );
  });

  it('kv ls prints a table of keys with their bytes (where the next page starts on stderr); --json gives keys and cursor', async () => {
    const token = await service.app().createToken(50);
    for (const key of ['beta', 'alpha', 'gamma', 'other'])
      await coinop(['kv', 'set', 'cli-ls', key, 'vé', '--ttl', '60'], { COINOP_TOKEN: token });
    const page = await coinop(['kv', 'ls', 'cli-ls', '--limit', '2'], { COINOP_TOKEN: token });
    expect(page.code).toBe(0);
    const lines = page.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+EXPIRES\s+BYTES$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['alpha', 'beta']);
    expect(lines[1]).toMatch(/^alpha\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\s+3$/);
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
    expect(JSON.parse(json.stdout)).toMatchObject({
      data: { keys: [{ key: 'other', size: 3 }], cursor: null },
      cost: 1,
      balance: 43,
    });
    expect(await coinop(['kv', 'ls', 'cli-ls', '--prefix', 'zz'], { COINOP_TOKEN: token })).toMatchObject({
      code: 0,
      stdout: '(no keys)\n',
    });
    expect((await coinop(['kv', 'ls', 'reserved-x'], { COINOP_TOKEN: token })).code).toBe(5);
    expect((await coinop(['kv', 'ls', 'cli-ls', '--limit', '101'], { COINOP_TOKEN: token })).code).toBe(5);
    expect((await coinop(['kv', 'ls'], { COINOP_TOKEN: token })).code).toBe(1);
  });

  it('kv buckets prints a table of buckets with their keys and bytes, a page at a time; --json gives buckets and cursor', async () => {
    const token = await service.app().createToken(50);
    expect(await coinop(['kv', 'buckets'], { COINOP_TOKEN: token })).toMatchObject({
      code: 0,
      stdout: '(no buckets)\n',
    });
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
    expect((await coinop(['kv', 'buckets', '--prefix', 'p', '--json'], { COINOP_TOKEN: token })).stdout).toContain(
      '"photos"',
    );
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
    expect(
      json.data.logs.map((entry: { endpoint: string; path: string }) => [entry.endpoint, entry.path.split('?')[0]]),
    ).toStrictEqual([
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
      for (
        const deadline = Date.now() + 15_000;
        !stdout.includes(text);
        await new Promise((resolve) => setTimeout(resolve, 50))
      )
        if (Date.now() > deadline) throw new Error(`no ${text} in: ${stdout}`);
    };
    try {
      await until('TIME');
      const set = await service
        .app()
        .inject({ method: 'POST', url: '/kv/cli/followed', payload: 'v', headers: { 'x-token': token } });
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

  it('webhook test exits 0 when the receiver took the delivery and 6 when it did not, the charge said either way', async () => {
    const token = await service.app().createToken(50);
    const created = await coinop(
      [
        'webhook',
        'create',
        service.outbound.url('/cli-test'),
        '--id',
        'clitest',
        '--cron',
        '0 3 * * *',
        '--timezone',
        'UTC',
      ],
      { COINOP_TOKEN: token },
    );
    expect(created.code, created.stderr).toBe(0);
    service.outbound.receiver().respondWith({ status: 200 });
    const delivered = await coinop(['webhook', 'test', 'clitest'], { COINOP_TOKEN: token });
    expect([delivered.code, delivered.stdout]).toEqual([0, 'delivered: test webhook delivered\n']);
    service.outbound.receiver().respondWith({ status: 500 });
    const failed = await coinop(['webhook', 'test', 'clitest'], { COINOP_TOKEN: token });
    expect([failed.code, failed.stdout]).toEqual([6, 'failed: webhook call failed: HTTP 500\n']);
    expect(failed.stderr).toContain('the receiver did not take the test delivery: it was still charged (1 credit)');
  });

  it('dns prints the records as a table, with no progress indicator when stderr is not a terminal', async () => {
    const token = await service.app().createToken(50);
    const answer = await coinop(['dns', 'example.test', '--types', 'A'], { COINOP_TOKEN: token });
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/^DOMAIN\s+TYPE\s+TTL\s+VALUE\nexample\.test\s+A\s+300\s+192\.0\.2\.10\n$/);
    expect(answer.stderr).toBe('(cost 5, balance 45)\n');
  });

  it('dns looks up with e-mail security and TLS inspection, as the service does, unless --no-enrich and --no-ssl', async () => {
    const token = await service.app().createToken(50);
    const lookup = async (...flags: string[]) => {
      const answer = await coinop(['dns', 'example.test', '--types', 'A', '--json', ...flags], { COINOP_TOKEN: token });
      expect(answer.code, answer.stderr).toBe(0);
      const { results } = (JSON.parse(answer.stdout) as { data: { results: { lookupResult: object }[] } }).data;
      return results[0]?.lookupResult ?? {};
    };
    const full = await lookup();
    expect(full).toHaveProperty('enrichment');
    expect(Object.keys(full).some((field) => field.startsWith('ssl_'))).toBe(true);
    const bare = await lookup('--no-enrich', '--no-ssl');
    expect(bare).not.toHaveProperty('enrichment');
    expect(Object.keys(bare).some((field) => field.startsWith('ssl_'))).toBe(false);
  });

  it('dns shows a progress indicator on stderr when it is a terminal, and clears it before the table', async () => {
    const token = await service.app().createToken(50);
    // script(1) (util-linux, in every Debian) runs the CLI on a pseudo-terminal; --types A on a zone the loopback server answers.
    const command = `'${process.execPath}' '${CLI}' dns example.test --types A`;
    const answer = await run('script', ['-qec', command, '/dev/null'], {
      HOME: home,
      COINOP_URL: service.url(),
      COINOP_TOKEN: token,
      TERM: 'dumb',
    });
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

  /** A call made with `token` straight to the instance: setting up a wallet's log without a CLI process each. */
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: string) => {
    const answer = await service.app().inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };
  const rows = (stdout: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/));

  it('help lists spend and recharge, and admin --help a usage line for each operator subcommand', async () => {
    const help = await coinop(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}spend\s+credits spent per day or hour/m);
    expect(help.stdout).toMatch(/^ {2}recharge\s+a payment link for 1 or 3 million credits/m);
    const admin = await coinop(['admin', '--help']);
    expect(admin.stdout.split('\n').map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual(
      ['list', 'wallets', 'logs', 'stats', 'credit', 'debit', 'delete', ''].map((sub) =>
        sub === '' ? '' : `coinop admin ${sub}`,
      ),
    );
  });

  it('spend prints credits and calls per period and category as a table, (no spending) before any call; --json gives the series', async () => {
    const token = await service.app().createToken(20);
    expect(await coinop(['spend'], { COINOP_TOKEN: token })).toStrictEqual({
      code: 0,
      stdout: '(no spending)\n',
      stderr: '(cost 0, balance 20)\n',
    });
    for (const key of ['a', 'b']) await call('POST', `/kv/cli-spend/${key}`, { 'x-token': token }, 'v');

    const json = await coinop(['spend', '--days', '1', '--json'], { COINOP_TOKEN: token });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const { data } = JSON.parse(json.stdout);
    const today = `${String(data.to).slice(0, 10)}T00:00:00.000Z`;
    // The first spend call is logged (free) as a `token` call: it shows in the sums after it.
    expect(JSON.parse(json.stdout)).toStrictEqual({
      data: {
        by: 'day',
        from: today,
        to: data.to,
        series: [
          { start: today, endpoint: 'kv', credits: 2, calls: 2 },
          { start: today, endpoint: 'token', credits: 0, calls: 1 },
        ],
      },
      cost: 0,
      balance: 18,
    });
    const table = await coinop(['spend', '--days', '1', '--by', 'day'], { COINOP_TOKEN: token });
    expect(table).toMatchObject({ code: 0, stderr: '(cost 0, balance 18)\n' });
    expect(table.stdout).toMatch(/^START\s+CATEGORY\s+CREDITS\s+CALLS\n/);
    // Dates for people: `2026-11-28 00:00:00 UTC`, one format with its zone.
    const day = [today.slice(0, 10), '00:00:00', 'UTC'];
    expect(rows(table.stdout)).toStrictEqual([
      [...day, 'kv', '2', '2'],
      [...day, 'token', '0', '2'],
    ]);
    const hourly = JSON.parse((await coinop(['spend', '--by', 'hour', '--json'], { COINOP_TOKEN: token })).stdout);
    expect(hourly.data.by).toBe('hour');
    expect(
      hourly.data.series
        .filter((period: { endpoint: string }) => period.endpoint === 'kv')
        .reduce((sum: number, period: { credits: number }) => sum + period.credits, 0),
    ).toBe(2);

    const week = await coinop(['spend', '--by', 'week'], { COINOP_TOKEN: token });
    expect(week).toMatchObject({ code: 1, stdout: '' });
    expect(week.stderr).toContain('--by is one of day, hour');
    expect((await coinop(['spend', '--days', 'two'], { COINOP_TOKEN: token })).code).toBe(1);
    const tooLong = await coinop(['spend', '--days', '8'], { COINOP_TOKEN: token });
    expect(tooLong).toMatchObject({
      code: 5,
      stderr: 'coinop spend: BadRequest: 400: Invalid days: must be an integer from 1 to 7\n(cost 0, balance 18)\n',
    });
  });

  it('recharge on an instance without Stripe exits 6 as other server errors do; an amount other than 1 or 3 is a usage error', async () => {
    const token = await service.app().createToken(5);
    expect(await coinop(['recharge', '1'], { COINOP_TOKEN: token })).toStrictEqual({
      code: 6,
      stdout: '',
      stderr: 'coinop recharge: ServerError: 501: Recharge is not configured\n(cost 0, balance 5)\n',
    });
    const two = await coinop(['recharge', '2'], { COINOP_TOKEN: token });
    expect(two).toMatchObject({ code: 1, stdout: '' });
    expect(two.stderr).toContain('<amount> is 1 or 3');
    expect((await coinop(['recharge'], { COINOP_TOKEN: token })).code).toBe(1);
  });

  it('admin list prints a page of wallets as a table, where the next page starts on stderr; --json gives wallets and cursor', async () => {
    // Balances above any other wallet of this suite: the first two of the balance order.
    const richest = await service.app().createToken(500_000_002);
    const second = await service.app().createToken(500_000_001);
    const first = await coinop(['admin', 'list', '--sort', 'balance', '-n', '1'], { ADMIN_TOKEN });
    expect(first.code).toBe(0);
    expect(first.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^HASH\s+BALANCE\s+CREATED\s+LAST USED$/),
      expect.stringMatching(new RegExp(`^${sha256Hex(richest)}\\s+500000002\\s+${WHEN}\\s+${WHEN}$`)),
    ]);
    const cursor = /^more wallets: add --cursor "(\S+)"\n$/.exec(first.stderr)?.[1];
    expect(cursor, first.stderr).toBeDefined();

    const next = await coinop(
      ['admin', 'list', '--sort', 'balance', '--limit', '1', '--cursor', cursor ?? '', '--json'],
      { ADMIN_TOKEN },
    );
    expect(next).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(next.stdout)).toStrictEqual({
      data: {
        wallets: [
          { hash: sha256Hex(second), wallet: 500_000_001, created: expect.any(String), lastUsed: expect.any(String) },
        ],
        cursor: expect.any(String),
      },
      cost: 0,
      balance: null,
    });

    const sort = await coinop(['admin', 'list', '--sort', 'richest'], { ADMIN_TOKEN });
    expect(sort).toMatchObject({ code: 1, stdout: '' });
    expect(sort.stderr).toContain('--sort is one of lastUsed, balance, created');
    expect((await coinop(['admin', 'list', '--limit', '0'], { ADMIN_TOKEN })).code).toBe(5);
    expect(await coinop(['admin', 'list'], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).toStrictEqual({
      code: 2,
      stdout: '',
      stderr: 'coinop admin: Forbidden: 403: Forbidden\n',
    });
  });

  it("admin logs prints a wallet's log as coinop logs does, a page at a time; --json gives the entries and cursor", async () => {
    const owner = await service.app().createToken(10);
    const hash = sha256Hex(owner);
    await call('POST', '/kv/cli-audit/k', { 'x-token': owner }, 'v');
    await call(
      'POST',
      `/manage/wallets/${hash}/credit`,
      { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      '{"amount":5,"reason":"goodwill"}',
    );

    // Oldest first, as coinop logs prints them; the whole log fits the page: no note.
    const all = await coinop(['admin', 'logs', owner], { ADMIN_TOKEN });
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^TIME\s+METHOD\s+PATH\s+TYPE\s+STATUS\s+COST\s+BALANCE\s+ERROR$/),
      expect.stringMatching(new RegExp(`^${WHEN}\\s+POST\\s+/kv/cli-audit/k\\s+kv\\s+200\\s+1\\s+9$`)),
      expect.stringMatching(
        new RegExp(`^${WHEN}\\s+POST\\s+/manage/wallets/${hash}/credit\\s+manage\\s+200\\s+0\\s+14$`),
      ),
    ]);
    // The operator's reads are logged in the wallet too (manage): the read above is now the newest entry.
    const newest = await coinop(['admin', 'logs', hash, '-n', '2'], { ADMIN_TOKEN });
    expect(rows(newest.stdout).map((row) => row[4])).toEqual([
      `/manage/wallets/${hash}/credit`,
      `/manage/wallets/${hash}/logs?limit=20`,
    ]);
    const cursor = /^more entries: add --cursor "(\S+)"\n$/.exec(newest.stderr)?.[1];
    expect(cursor, newest.stderr).toBeDefined();
    const older = await coinop(['admin', 'logs', hash, '--limit', '2', '--cursor', cursor ?? ''], { ADMIN_TOKEN });
    expect(older).toMatchObject({ code: 0, stderr: '' });
    expect(rows(older.stdout).map((row) => row[4])).toEqual(['/kv/cli-audit/k']);

    const json = await coinop(['admin', 'logs', owner, '--type', 'kv', '--json'], { ADMIN_TOKEN });
    expect(JSON.parse(json.stdout)).toStrictEqual({
      data: {
        logs: [
          expect.objectContaining({ method: 'POST', path: '/kv/cli-audit/k', endpoint: 'kv', cost: 1, balance: 9 }),
        ],
        cursor: null,
      },
      cost: 0,
      balance: null,
    });

    expect((await coinop(['admin', 'logs', 'f'.repeat(64)], { ADMIN_TOKEN })).code).toBe(4);
    expect((await coinop(['admin', 'logs', owner, '--limit', 'ten'], { ADMIN_TOKEN })).code).toBe(1);
    expect((await coinop(['admin', 'logs'], { ADMIN_TOKEN })).code).toBe(1);
    expect((await coinop(['admin', 'logs', owner], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).code).toBe(2);
  });

  it('admin stats prints wallets, credits in circulation and a table of credits spent per day; --json gives the same', async () => {
    const before = JSON.parse((await coinop(['admin', 'stats', '--days', '2', '--json'], { ADMIN_TOKEN })).stdout).data;
    expect(before.spentPerDay).toHaveLength(2);
    const token = await service.app().createToken(100);
    for (const key of ['a', 'b', 'c']) await call('POST', `/kv/cli-stats/${key}`, { 'x-token': token }, 'v');

    const after = await coinop(['admin', 'stats', '--days', '2'], { ADMIN_TOKEN });
    expect(after).toMatchObject({ code: 0, stderr: '' });
    const [yesterday, today] = before.spentPerDay;
    expect(after.stdout.trimEnd().split('\n')).toEqual([
      `wallets  ${before.wallets + 1}`,
      `credits  ${before.credits + 97}`,
      '',
      expect.stringMatching(/^DAY\s+SPENT$/),
      expect.stringMatching(new RegExp(`^${yesterday.day}\\s+${yesterday.credits}$`)),
      expect.stringMatching(new RegExp(`^${today.day}\\s+${today.credits + 3}$`)),
    ]);
    expect(
      JSON.parse((await coinop(['admin', 'stats', '--json'], { ADMIN_TOKEN })).stdout).data.spentPerDay,
    ).toHaveLength(7);

    expect((await coinop(['admin', 'stats', '--days', 'two'], { ADMIN_TOKEN })).code).toBe(1);
    expect((await coinop(['admin', 'stats', '--days', '91'], { ADMIN_TOKEN })).code).toBe(5);
    expect((await coinop(['admin', 'stats'], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).code).toBe(2);
  });

  it('admin debit takes credits, all or nothing, the reason kept in the log; a debit beyond the balance exits 5 and changes nothing', async () => {
    const owner = await service.app().createToken(10);
    const hash = sha256Hex(owner);
    const json = await coinop(['admin', 'debit', owner, '4', '--reason', 'refund', '--json'], { ADMIN_TOKEN });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toStrictEqual({ data: { hash, wallet: 6 }, cost: 0, balance: null });
    expect(await coinop(['admin', 'debit', hash, '1'], { ADMIN_TOKEN })).toStrictEqual({
      code: 0,
      stdout: `hash    ${hash}\nwallet  5\n`,
      stderr: '',
    });
    const log = await call('GET', `/manage/wallets/${hash}/logs?type=manage`, { 'x-admin-token': ADMIN_TOKEN });
    expect(
      JSON.parse(log.body).logs.map((entry: { balance: number; reason?: string }) => [entry.balance, entry.reason]),
    ).toStrictEqual([
      [5, undefined],
      [6, 'refund'],
    ]);

    expect(await coinop(['admin', 'debit', owner, '6'], { ADMIN_TOKEN })).toStrictEqual({
      code: 5,
      stdout: '',
      stderr: 'coinop admin: Conflict: 409: Balance too low\n',
    });
    expect((await coinop(['admin', 'wallets', owner], { ADMIN_TOKEN })).stdout).toMatch(/^wallet\s+5$/m);
    expect((await coinop(['admin', 'debit', owner, 'four'], { ADMIN_TOKEN })).code).toBe(1);
    expect((await coinop(['admin', 'debit', owner, '1'], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).code).toBe(2);
  });

  it('admin delete refuses without --yes and deletes nothing; with --yes the wallet goes and its token is refused from then on', async () => {
    const owner = await service.app().createToken(10);
    const refused = await coinop(['admin', 'delete', owner], { ADMIN_TOKEN });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain(
      'coinop admin: deleting a wallet and all its data is irreversible: add --yes to confirm',
    );
    expect((await coinop(['balance'], { COINOP_TOKEN: owner })).stdout).toBe('9\n');

    expect(await coinop(['admin', 'delete', owner, '--yes'], { ADMIN_TOKEN })).toStrictEqual({
      code: 0,
      stdout: 'OK\n',
      stderr: '',
    });
    expect((await coinop(['balance'], { COINOP_TOKEN: owner })).code).toBe(2);
    expect((await coinop(['admin', 'delete', sha256Hex(owner), '--yes'], { ADMIN_TOKEN })).code).toBe(4);

    const other = await service.app().createToken(10);
    expect((await coinop(['admin', 'delete', other, '--yes'], { ADMIN_TOKEN: 'wrong-admin-token-0000' })).code).toBe(2);
    const json = await coinop(['admin', 'delete', '--yes', other, '--json'], { ADMIN_TOKEN });
    expect(JSON.parse(json.stdout)).toStrictEqual({ data: 'OK', cost: 0, balance: null });
    expect((await coinop(['admin', 'wallets', other], { ADMIN_TOKEN })).code).toBe(4);
  });
});

describeEachStore(
  'the coinop CLI asking for a recharge link from an instance selling through Stripe Payment Links',
  (kind) => {
    const links = { '1': 'https://buy.stripe.com/test_cli_1m', '3': 'https://buy.stripe.com/test_cli_3m' };
    const get = useTestApp(kind, {
      env: {
        STRIPE_WEBHOOK_SECRET: 'whsec_cli_test',
        STRIPE_PAYMENT_LINK_1M: links['1'],
        STRIPE_PAYMENT_LINK_3M: links['3'],
      },
    });
    let url: string;
    let home: string;
    beforeAll(async () => {
      await get().app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
      home = mkdtempSync(join(tmpdir(), 'coinop-cli-'));
    });
    afterAll(() => rmSync(home, { recursive: true, force: true }));
    const coinop = (args: readonly string[], token: string) =>
      run(process.execPath, [CLI, ...args], {
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        COINOP_URL: url,
        COINOP_TOKEN: token,
      });

    it('recharge prints the payment URL for the amount with the wallet hash, for free; --json gives it as data', async () => {
      const token = await get().createToken(5);
      expect(await coinop(['recharge', '3'], token)).toStrictEqual({
        code: 0,
        stdout: `${links['3']}?client_reference_id=${sha256Hex(token)}\n`,
        stderr: '(cost 0, balance 5)\n',
      });
      const json = await coinop(['recharge', '1', '--json'], token);
      expect(JSON.parse(json.stdout)).toStrictEqual({
        data: `${links['1']}?client_reference_id=${sha256Hex(token)}`,
        cost: 0,
        balance: 5,
      });
      expect((await coinop(['recharge', '1'], 'not-a-token-of-this-service')).code).toBe(2);
    });
  },
);
