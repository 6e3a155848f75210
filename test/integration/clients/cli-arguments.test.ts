import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/server-process.js';
import { CLI, PACKAGE, buildClient, run } from './run-cli.js';

beforeAll(async () => {
  const build = await buildClient();
  expect(build, build.stdout).toMatchObject({ code: 0 });
}, 120_000);

/**
 * The CLI pointed at a port where nothing listens: a command line it sends exits 6 (cannot reach), one it refuses
 * exits 1 before sending anything, so the exit code alone tells whether a request would have gone out (and been
 * charged).
 */
describe('coinop command lines with words or options the command would ignore', () => {
  let home: string;
  let url: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'coinop-cli-arguments-'));
    url = `http://127.0.0.1:${await freePort()}`;
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const coinop = (args: readonly string[]) =>
    run(process.execPath, [CLI, ...args], {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      COINOP_URL: url,
      COINOP_TOKEN: 'a-token',
      ADMIN_TOKEN: 'an-admin-token',
    });

  const REFUSED: readonly (readonly [readonly string[], string])[] = [
    [['kv', 'set', 'b', 'greeting', 'hello', 'world'], 'unexpected argument for kv set: world'],
    [['kv', 'get', 'b', 'k', 'extra'], 'unexpected argument for kv get: extra'],
    [['kv', 'del', 'b', 'k', 'oops'], 'unexpected argument for kv del: oops'],
    [['kv', 'ls', 'b', 'c'], 'unexpected argument for kv ls: c'],
    [['kv', 'get', 'b', 'k', '--ttl', '5'], 'kv get takes no --ttl'],
    [['kv', 'set', 'b', 'k', 'v', '--prefix', 'p'], 'kv set takes no --prefix'],
    [['kv', 'buckets', '--ttl', '5'], 'kv buckets takes no --ttl'],
    [['meta', 'https://a.example/', 'https://b.example/'], 'unexpected argument for meta: https://b.example/'],
    [['webhook', 'test', 'w1', 'w2'], 'unexpected argument for webhook test: w2'],
    [['webhook', 'get', 'w1', '--status', 'failure'], 'webhook get takes no --status'],
    [['webhook', 'rm', 'w1', '--cron', '0 3 * * *'], 'webhook rm takes no --cron'],
    [
      ['webhook', 'create', 'https://a.example/', 'https://b.example/'],
      'unexpected argument for webhook create: https://b.example/',
    ],
    [
      ['webhook', 'create', 'https://a.example/', '--body', '{}'],
      'unexpected argument for webhook create --body: https://a.example/',
    ],
    [['webhook', 'create', '--body', '{}', '--format', 'slack'], 'webhook create --body takes no --format'],
    [['ip', 'extra'], 'unexpected argument for ip: extra'],
    [['balance', 'extra'], 'unexpected argument for balance: extra'],
    [['logs', 'extra'], 'unexpected argument for logs: extra'],
    [['token', 'info', '--save'], 'token info takes no --save'],
    [['admin', 'credit', 'w', '5', '6'], 'unexpected argument for admin credit: 6'],
    [['admin', 'wallets', 'w', '--yes'], 'admin wallets takes no --yes'],
  ];

  it('refuses each as a usage error (exit 1, the usage shown) and sends nothing', async () => {
    for (const [args, message] of REFUSED) {
      const answer = await coinop(args);
      expect(answer.code, args.join(' ')).toBe(1);
      expect(answer.stdout, args.join(' ')).toBe('');
      expect(answer.stderr.split('\n')[0], args.join(' ')).toBe(`coinop ${args[0] ?? ''}: ${message}`);
    }
  });

  it('sends the same commands without the stray word or option (so exit 6: nothing answers there)', async () => {
    for (const args of [
      ['kv', 'set', 'b', 'greeting', 'hello', '--ttl', '5'],
      ['kv', 'get', 'b', 'k'],
      ['kv', 'ls', 'b', '-n', '5'],
      ['meta', 'https://a.example/', '--summary', 'short'],
      ['webhook', 'deliveries', 'w1', '--status', 'failure'],
      ['webhook', 'create', '--body', '{"url": "https://a.example/"}'],
      ['ip', '--json'],
      ['admin', 'credit', 'w', '5', '--reason', 'r'],
    ]) {
      expect((await coinop(args)).code, args.join(' ')).toBe(6);
    }
  });
});

describe('coinop webhook create --header given twice', () => {
  let home: string;
  let url: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'coinop-cli-headers-'));
    url = `http://127.0.0.1:${await freePort()}`;
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('refuses the same name twice as it refuses it in two cases, in the service words, before sending', async () => {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: url, COINOP_TOKEN: 'a-token' };
    const create = ['webhook', 'create', 'https://hooks.example.com/h', '--cron', '0 3 * * *', '--timezone', 'UTC'];
    for (const second of ['X-A=2', 'x-a=2']) {
      const answer = await run(process.execPath, [CLI, ...create, '--header', 'X-A=1', '--header', second], env);
      expect(answer, second).toStrictEqual({
        code: 5,
        stdout: '',
        stderr: `coinop webhook: Invalid headers: "${second.split('=')[0] ?? ''}" is given twice (header names ignore case)\n(not sent: nothing charged)\n`,
      });
    }
    // Two names: sent (nothing answers there: exit 6).
    const sent = await run(process.execPath, [CLI, ...create, '--header', 'X-A=1', '--header', 'X-B=2'], env);
    expect(sent.code).toBe(6);
  });
});

describe('coinop help gives each command its price', () => {
  /** The service's `x-cost` of an operation, from the document the SDK is generated from. */
  const document = JSON.parse(readFileSync(join(PACKAGE, 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; 'x-cost'?: string | number }>>;
  };
  const xCost = (operationId: string): string =>
    String(
      Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .find((operation) => operation.operationId === operationId)?.['x-cost'],
    );
  const credits = (text: string): string => {
    const cost = Number(/^\d+/.exec(text)?.[0]);
    return cost === 0 ? 'free' : `${cost} ${cost === 1 ? 'credit' : 'credits'}`;
  };

  it('in coinop help, paid commands as free ones, and in each usage line of --help', async () => {
    const help = await run(process.execPath, [CLI, 'help'], {});
    const summary = /or (\d+) with aiSummary/.exec(xCost('urlMetadata'))?.[1] ?? '';
    const expected: Readonly<Record<string, string>> = {
      balance: `(${credits(xCost('tokenGet'))})`,
      kv: `(${credits(xCost('kvSet'))} each)`,
      webhook: `(${credits(xCost('webhookCreate'))} each; deliveries ${credits(xCost('webhookDeliveries'))})`,
      dns: `(${credits(xCost('dnsLookup'))})`,
      meta: `(${credits(xCost('urlMetadata'))}, ${summary} credits with --summary short|medium|long)`,
      ip: `(${credits(xCost('myIp'))})`,
      spend: `(${credits(xCost('spendSummary'))})`,
    };
    for (const [word, price] of Object.entries(expected))
      expect(
        help.stdout.split('\n').find((line) => line.startsWith(`  ${word} `)),
        word,
      ).toContain(price);
    expect(summary).toBe('800');
    const meta = await run(process.execPath, [CLI, 'meta', '--help'], {});
    expect(meta.stdout).toContain('(55 credits, 800 credits with --summary short|medium|long)');
    const kv = await run(process.execPath, [CLI, 'kv', '--help'], {});
    expect(
      kv.stdout
        .split('\n')
        .filter((line) => line !== '')
        .every((line) => line.includes('(1 credit')),
    ).toBe(true);
  });
});
