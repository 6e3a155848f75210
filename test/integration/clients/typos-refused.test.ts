import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { ADMIN_TOKEN, useLiveService } from './live-service.js';
import { CLI, buildClient, run } from './run-cli.js';

beforeAll(async () => {
  const build = await buildClient();
  expect(build, build.stdout).toMatchObject({ code: 0 });
}, 120_000);

/**
 * Typos a newcomer makes, as `coinop` arguments, and the HTTP request the service would get for each: the CLI must
 * refuse each with the service's own 400 body, before sending anything.
 */
const TYPOS: readonly {
  readonly args: readonly string[];
  readonly request: { method: 'GET' | 'POST'; url: string; payload?: unknown };
}[] = [
  {
    args: ['kv', 'set', 'reserved-notes', 'k', 'v'],
    request: { method: 'POST', url: '/kv/reserved-notes/k', payload: 'v' },
  },
  {
    args: ['kv', 'set', 'notes', 'k', 'v', '--ttl', '2678400'],
    request: { method: 'POST', url: '/kv/notes/k?ttl=2678400', payload: 'v' },
  },
  {
    args: ['kv', 'set', 'notes', 'k', 'x'.repeat(1001)],
    request: { method: 'POST', url: '/kv/notes/k', payload: 'x'.repeat(1001) },
  },
  {
    args: ['kv', 'get', 'a-bucket-name-longer-than-30-chars', 'k'],
    request: { method: 'GET', url: '/kv/a-bucket-name-longer-than-30-chars/k' },
  },
  { args: ['kv', 'ls', 'notes', '--limit', '101'], request: { method: 'GET', url: '/kv/notes?limit=101' } },
  { args: ['dns', 'localhost'], request: { method: 'POST', url: '/dns-lookup', payload: { domains: ['localhost'] } } },
  {
    args: ['webhook', 'create', 'http://hooks.example.com/h', '--cron', '0 3 * * *', '--timezone', 'UTC'],
    request: {
      method: 'POST',
      url: '/webhook',
      payload: { url: 'http://hooks.example.com/h', schedule: { cron: '0 3 * * *', timezone: 'UTC' } },
    },
  },
  {
    args: ['webhook', 'create', 'https://hooks.example.com/h', '--cron', '61 * * * *', '--timezone', 'UTC'],
    request: {
      method: 'POST',
      url: '/webhook',
      payload: { url: 'https://hooks.example.com/h', schedule: { cron: '61 * * * *', timezone: 'UTC' } },
    },
  },
  {
    args: ['webhook', 'create', 'https://hooks.example.com/h', '--cron', '0 3 * * *', '--timezone', 'Europe/Berlim'],
    request: {
      method: 'POST',
      url: '/webhook',
      payload: { url: 'https://hooks.example.com/h', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlim' } },
    },
  },
  {
    args: [
      'webhook',
      'create',
      'https://hooks.example.com/h',
      '--id',
      'call',
      '--cron',
      '0 3 * * *',
      '--timezone',
      'UTC',
    ],
    request: {
      method: 'POST',
      url: '/webhook',
      payload: {
        webhookId: 'call',
        url: 'https://hooks.example.com/h',
        schedule: { cron: '0 3 * * *', timezone: 'UTC' },
      },
    },
  },
  {
    args: ['webhook', 'test', 'no spaces allowed'],
    request: { method: 'POST', url: '/webhook/no%20spaces%20allowed/test' },
  },
  {
    args: ['meta', 'ftp://example.com/file'],
    request: { method: 'POST', url: '/url-to-metadata', payload: { url: 'ftp://example.com/file' } },
  },
];

describeEachStore('typos caught by the clients before they are charged', (kind) => {
  const service = useLiveService(kind);
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'coinop-typos-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** The wallet's balance and its log's length, read by the operator (free, and not in the wallet's own calls). */
  async function wallet(token: string): Promise<{ balance: number; calls: number }> {
    const headers = { 'x-admin-token': ADMIN_TOKEN };
    const info = await service.app().inject({ method: 'GET', url: `/manage/wallets/${sha256Hex(token)}`, headers });
    const logs = await service
      .app()
      .inject({ method: 'GET', url: `/manage/wallets/${sha256Hex(token)}/logs?type=kv`, headers });
    const others = ['webhook', 'service', 'token'].map((type) =>
      service.app().inject({ method: 'GET', url: `/manage/wallets/${sha256Hex(token)}/logs?type=${type}`, headers }),
    );
    const counts = [logs, ...(await Promise.all(others))].map(
      (answer) => (JSON.parse(answer.body) as { logs: unknown[] }).logs.length,
    );
    return {
      balance: (JSON.parse(info.body) as { wallet: number }).wallet,
      calls: counts.reduce((sum, n) => sum + n, 0),
    };
  }

  it('the CLI refuses each with the service own 400 body, sends nothing and charges nothing; the service would have charged', async () => {
    const token = await service.app().createToken(100);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: service.url(), COINOP_TOKEN: token };
    const before = await wallet(token);
    expect(before).toStrictEqual({ balance: 100, calls: 0 });
    // What the service answers to the same requests, from another wallet: a 400 that costs.
    const witness = await service.app().createToken(100);
    for (const { args, request } of TYPOS) {
      const served = await service.app().inject({
        method: request.method,
        url: request.url,
        headers: {
          'x-token': witness,
          ...(typeof request.payload === 'string' ? { 'content-type': 'text/plain' } : {}),
        },
        ...(request.payload === undefined ? {} : { payload: request.payload as string }),
      });
      expect(served.statusCode, served.body).toBe(400);
      expect(Number(served.headers['x-cost']), `${request.url} is charged by the service`).toBeGreaterThan(0);

      // url-to-metadata words its errors in JSON ({"success": false, "error": …}); the rule's wording is the same.
      const wording = served.body.startsWith('{') ? (JSON.parse(served.body) as { error: string }).error : served.body;
      const refused = await run(process.execPath, [CLI, ...args], env);
      expect(refused, args.join(' ')).toStrictEqual({
        code: 5,
        stdout: '',
        stderr: `coinop ${args[0] ?? ''}: ${wording}\n(not sent: nothing charged)\n`,
      });
    }
    expect(await wallet(token)).toStrictEqual(before);
  });

  it('the CLI refuses . and .. as a bucket or key, which URLs would resolve to another route, sending nothing', async () => {
    const token = await service.app().createToken(100);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: service.url(), COINOP_TOKEN: token };
    const cases: ReadonlyArray<readonly [readonly string[], string]> = [
      [['kv', 'get', 'b', '..'], 'Invalid key: . and .. cannot be sent as a path segment'],
      [['kv', 'set', 'b', '.', 'v'], 'Invalid key: . and .. cannot be sent as a path segment'],
      [['kv', 'del', 'b', '..'], 'Invalid key: . and .. cannot be sent as a path segment'],
      [['kv', 'ls', '..'], 'Invalid bucket: . and .. cannot be sent as a path segment'],
    ];
    for (const [args, wording] of cases) {
      expect(await run(process.execPath, [CLI, ...args], env), args.join(' ')).toStrictEqual({
        code: 5,
        stdout: '',
        stderr: `coinop kv: ${wording}\n(not sent: nothing charged)\n`,
      });
    }
    expect(await wallet(token)).toStrictEqual({ balance: 100, calls: 0 });
  });

  it('coinop mcp refuses such tool calls before forwarding them: cost 0, and the wallet neither charged nor called', async () => {
    const token = await service.app().createToken(100);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        COINOP_URL: service.url(),
        COINOP_TOKEN: token,
      },
      stderr: 'inherit',
    });
    const agent = new Client({ name: 'coinop-typos-test', version: '1.0.0' });
    await agent.connect(transport);
    try {
      const calls = [
        {
          name: 'kv_set',
          arguments: { bucket: 'reserved-notes', key: 'k', value: 'v' },
          body: 'Invalid bucket: must not start with reserved-',
        },
        {
          name: 'kv_set',
          arguments: { bucket: 'notes', key: 'k', value: 'v', ttl: 2_678_400 },
          body: 'Invalid ttl: must be an integer from 0 to 2592000',
        },
        {
          name: 'kv_list',
          arguments: { bucket: 'notes', limit: 0 },
          body: 'Invalid limit: must be an integer from 1 to 100',
        },
        {
          name: 'dns_lookup',
          arguments: { domains: ['localhost'] },
          body: 'Invalid domains[0]: "localhost" is not a valid domain name or IP address',
        },
        {
          name: 'url_metadata',
          arguments: { url: 'ftp://example.com/' },
          body: 'Invalid url: must be an absolute http or https URL',
        },
      ];
      for (const { name, arguments: args, body } of calls) {
        const result = (await agent.callTool({ name, arguments: args })) as CallToolResult;
        expect(result, name).toMatchObject({ isError: true, _meta: { status: 400, cost: 0 } });
        expect(result.content[0], name).toEqual({ type: 'text', text: `400 ${body}` });
      }
      expect(await wallet(token)).toStrictEqual({ balance: 100, calls: 0 });
      // A valid call goes through and is charged as over HTTP.
      const set = (await agent.callTool({
        name: 'kv_set',
        arguments: { bucket: 'notes', key: 'k', value: 'v' },
      })) as CallToolResult;
      expect(set._meta).toEqual({ status: 200, cost: 1, balance: 99 });
    } finally {
      await agent.close();
    }
  });
});
