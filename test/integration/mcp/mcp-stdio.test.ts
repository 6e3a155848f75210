import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const CLI = fileURLToPath(new URL('../../../clients/typescript/src/cli.ts', import.meta.url));
const BRIDGE = fileURLToPath(new URL('../../../clients/typescript/src/mcp-stdio.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

describeEachStore('coinop mcp (stdio bridge)', (kind) => {
  const get = useTestApp(kind);
  let client: Client | undefined;
  let token = '';
  let base = '';
  // As an agent starts it: a child process speaking MCP on stdin/stdout, configured by the environment (no config file).
  async function startBridge(args: string[], env: Record<string, string>): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [TSX, ...args],
      env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: join(tmpdir(), 'coinop-mcp-test-no-config'), ...env },
      stderr: 'inherit',
    });
    const started = new Client({ name: 'coinop-test', version: '1.0.0' });
    await started.connect(transport);
    return started;
  }

  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
    token = await get().createToken(10);
    client = await startBridge([CLI, 'mcp'], { COINOP_URL: base, COINOP_TOKEN: token });
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it('`coinop mcp` serves the instance tools and forwards calls, charged to the token', async () => {
    if (client === undefined) throw new Error('bridge not started');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['kv_set', 'kv_get', 'balance', 'logs']));
    expect(tools.find((tool) => tool.name === 'kv_set')?.inputSchema.required).toEqual(
      expect.arrayContaining(['bucket', 'key', 'value']),
    );

    const set = (await client.callTool({
      name: 'kv_set',
      arguments: { bucket: 'stdio', key: 'k', value: 'over stdio' },
    })) as CallToolResult;
    expect(set._meta).toEqual({ status: 200, cost: 1, balance: 9 });
    const read = (await client.callTool({
      name: 'kv_get',
      arguments: { bucket: 'stdio', key: 'k' },
    })) as CallToolResult;
    expect(read.content[0]).toEqual({ type: 'text', text: 'over stdio' });
    expect(read.content[1]).toEqual({ type: 'text', text: 'cost: 1 credit, balance: 8' });
    // The value is the instance's: the same key over HTTP.
    const answer = await get().inject({ method: 'GET', url: '/kv/stdio/k', headers: { 'x-token': token } });
    expect([answer.body, answer.headers['x-balance']]).toEqual(['over stdio', '7']);
  });

  it('runs as its own entry, with the token from --token', async () => {
    const bridge = await startBridge([BRIDGE, '--url', base, '--token', token], {});
    try {
      const result = (await bridge.callTool({ name: 'balance', arguments: {} })) as CallToolResult;
      expect(result._meta).toMatchObject({ status: 200, cost: 1 });
    } finally {
      await bridge.close();
    }
  });
});
