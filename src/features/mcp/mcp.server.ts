import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { BatchRun } from './mcp.batch.js';
import { routeCallOf } from './mcp.calls.js';
import { MCP_TOOLS } from './mcp.tools.js';
import type { RouteCall, ToolService } from './mcp.tools.js';

/** What a route answered a tool's call. */
export interface RouteAnswer {
  readonly statusCode: number;
  readonly body: string;
  readonly contentType: string | undefined;
  /** x-cost and x-balance, when the answer carries them. */
  readonly cost: number | undefined;
  readonly balance: number | undefined;
}

/** Makes one HTTP call as the MCP caller (its token, its address) through the app's own routes. */
export type RouteDispatch = (call: RouteCall) => Promise<RouteAnswer>;

/** What one POST's tools run against: the service's version, its routes as the caller, its own free checks. */
export interface ToolRuntime {
  readonly version: string;
  readonly dispatch: RouteDispatch;
  readonly service: ToolService;
}

const toolsByName = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

/**
 * The answer to tools/list, made once: it never changes. JSON Schema as the routes declare it (the JSON round trip
 * drops TypeBox's symbol keys); its size is counted once too.
 */
const TOOL_LIST: ListToolsResult = {
  tools: MCP_TOOLS.map((tool): Tool => ({
    name: tool.name,
    description: tool.description,
    inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as Tool['inputSchema'],
  })),
};
const TOOL_LIST_BYTES = Buffer.byteLength(JSON.stringify(TOOL_LIST));

const chargeLine = (cost: number, balance: number | undefined): string =>
  `cost: ${cost} credit${cost === 1 ? '' : 's'}${balance === undefined ? '' : `, balance: ${balance}`}`;

/**
 * The route's answer as a tool result: the body once, as text (what an agent reads; an error's plain-text wording
 * with `isError`), then a line saying what the call cost and the balance after it, repeated for programs in `_meta`.
 * No `structuredContent`: it is meant to match a tool's outputSchema, which these tools do not declare, and it would
 * carry the body a second time.
 */
export function toolResult(answer: RouteAnswer): CallToolResult {
  const cost = answer.cost ?? 0;
  const isError = answer.statusCode >= 400;
  return {
    content: [
      { type: 'text', text: isError ? `${answer.statusCode} ${answer.body}` : answer.body },
      { type: 'text', text: chargeLine(cost, answer.balance) },
    ],
    _meta: { status: answer.statusCode, cost, ...(answer.balance === undefined ? {} : { balance: answer.balance }) },
    ...(isError ? { isError: true } : {}),
  };
}

/** A call the tool refused before making it: the route's 400 wording, charged nothing. */
function refusalResult(refusal: string): CallToolResult {
  return {
    content: [
      { type: 'text', text: `400 ${refusal}` },
      { type: 'text', text: chargeLine(0, undefined) },
    ],
    _meta: { status: 400, cost: 0 },
    isError: true,
  };
}

/** Bytes a result adds to the POST's answer (its JSON, as the transport writes it). */
const bytesOfResult = (result: CallToolResult): number => Buffer.byteLength(JSON.stringify(result));

async function callTool(runtime: ToolRuntime, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const tool = toolsByName.get(name);
  if (tool === undefined) return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
  const routeCall = routeCallOf(tool, args, runtime.service);
  return routeCall.ok ? toolResult(await runtime.dispatch(routeCall.call)) : refusalResult(routeCall.refusal);
}

/**
 * A low-level MCP server for one POST of one caller: the tools list and each tool call as the HTTP call it stands for,
 * the calls of a batch run one at a time within the answer's bounds (see BatchRun).
 */
export function mcpServer(runtime: ToolRuntime): Server {
  const server = new Server({ name: 'coinop', version: runtime.version }, { capabilities: { tools: {} } });
  const batch = new BatchRun();
  server.setRequestHandler(ListToolsRequestSchema, () =>
    batch.run(
      () => TOOL_LIST,
      () => TOOL_LIST_BYTES,
    ),
  );
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    batch.run(() => callTool(runtime, request.params.name, request.params.arguments ?? {}), bytesOfResult),
  );
  return server;
}

/** What one POST /mcp answers: the status, headers and body the SDK's transport wrote. */
export interface PostAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/**
 * One POST's JSON-RPC message or batch, answered by a server and transport of its own (stateless: nothing to share
 * between instances), as JSON rather than an event stream.
 */
export async function answerPost(runtime: ToolRuntime, headers: Headers, body: unknown): Promise<PostAnswer> {
  const server = mcpServer(runtime);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const request = new Request('http://localhost/mcp', { method: 'POST', headers });
    const answer = await transport.handleRequest(request, { parsedBody: body });
    return { status: answer.status, headers: answer.headers, body: await answer.text() };
  } finally {
    await server.close();
  }
}
