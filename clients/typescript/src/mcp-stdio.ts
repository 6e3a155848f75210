#!/usr/bin/env node
/**
 * `coinop mcp`: the service's MCP tools over stdio, for agents that start a local command. A stdio MCP server
 * whose tools/list and tools/call are forwarded to a coinop instance's `/mcp` (Streamable HTTP) with the token:
 * the tools, their costs and their answers are the service's own. Arguments the service would refuse and charge for are
 * refused here first, with its own rules (mcp-rules.ts). Settings as every command reads them (--url/--token,
 * COINOP_URL/COINOP_TOKEN, the config file). Also runnable on its own: `node dist/mcp-stdio.js`.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Command } from './cli/command.js';
import { invocation } from './cli/command.js';
import { UsageError } from './cli/exit-codes.js';
import { toolInputProblem } from './mcp-rules.js';

const BRIDGE_VERSION = '0.1.0';

export interface McpBridgeSettings {
  /** The coinop instance, e.g. `https://coinop.example.com` (its `/mcp` is used). */
  readonly url: string;
  readonly token: string;
}

/** Serves the instance's tools on stdin/stdout until stdin ends; connects to the instance on the first request. */
export async function serveMcpOverStdio(settings: McpBridgeSettings): Promise<void> {
  let connected: Promise<Client> | undefined;
  const upstream = (): Promise<Client> => {
    connected ??= (async () => {
      const client = new Client({ name: 'coinop-mcp-stdio', version: BRIDGE_VERSION });
      const endpoint = new URL('/mcp', settings.url);
      await client.connect(
        new StreamableHTTPClientTransport(endpoint, {
          requestInit: { headers: { authorization: `Bearer ${settings.token}` } },
        }),
      );
      return client;
    })().catch((error: unknown) => {
      connected = undefined; // the next request tries again (the instance may have been starting)
      throw error;
    });
    return connected;
  };

  const server = new Server({ name: 'coinop', version: BRIDGE_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => (await upstream()).listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const problem = toolInputProblem(request.params.name, request.params.arguments);
    if (problem !== null) return refusedHere(problem);
    return (await (await upstream()).callTool(request.params)) as CallToolResult;
  });
  server.onclose = () => void connected?.then((client) => client.close()).catch(() => undefined);
  await server.connect(new StdioServerTransport());
}

/** A call the service would refuse, and charge, refused before it is sent: as the service words a free refusal. */
function refusedHere(problem: string): CallToolResult {
  return {
    content: [
      { type: 'text', text: `400 ${problem}` },
      { type: 'text', text: 'cost: 0 credits (checked before sending: nothing was sent or charged)' },
    ],
    _meta: { status: 400, cost: 0 },
    isError: true,
  };
}

export const mcpCommand: Command = {
  summary: "serve the instance's MCP tools over stdio, for a local agent (stdout carries the protocol)",
  usage:
    'coinop mcp [--url <base URL>] [--token <token>]   (an agent starts it; each tool call is charged as its HTTP call)',
  async run(args) {
    const { settings } = invocation(args, {});
    if (settings.token === undefined)
      throw new UsageError('no token: set COINOP_TOKEN, pass --token, or run `coinop token new --save`');
    await serveMcpOverStdio({ url: settings.url, token: settings.token });
  },
};

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  // stdout carries the protocol: messages go to stderr.
  mcpCommand.run(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`coinop mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
