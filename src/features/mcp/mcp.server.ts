import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { routeCallOf } from './mcp.calls.js';
import { MCP_TOOLS } from './mcp.tools.js';
import type { RouteCall } from './mcp.tools.js';

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

const toolsByName = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

/** The tool list, computed once: JSON Schema as the routes declare it (the JSON round trip drops TypeBox's symbol keys). */
const TOOL_LIST: Tool[] = MCP_TOOLS.map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as Tool['inputSchema'],
}));

function parsedJson(answer: RouteAnswer): unknown {
  if (answer.contentType?.startsWith('application/json') !== true) return undefined;
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The route's answer as a tool result: the body as text (an error's plain-text wording with `isError`), and what the
 * call cost and the balance after it, both as a line of text (what an agent reads) and in `structuredContent`/`_meta`.
 */
export function toolResult(answer: RouteAnswer): CallToolResult {
  const json = parsedJson(answer);
  const charge = { cost: answer.cost ?? 0, ...(answer.balance === undefined ? {} : { balance: answer.balance }) };
  const chargeLine = `cost: ${charge.cost} credit${charge.cost === 1 ? '' : 's'}${answer.balance === undefined ? '' : `, balance: ${answer.balance}`}`;
  const isError = answer.statusCode >= 400;
  return {
    content: [
      { type: 'text', text: isError ? `${answer.statusCode} ${answer.body}` : answer.body },
      { type: 'text', text: chargeLine },
    ],
    structuredContent: { status: answer.statusCode, result: json ?? answer.body, ...charge },
    _meta: { status: answer.statusCode, ...charge },
    ...(isError ? { isError: true } : {}),
  };
}

/** A call the tool refused before making it: the route's 400 wording, charged nothing. */
function refusalResult(refusal: string): CallToolResult {
  return {
    content: [
      { type: 'text', text: `400 ${refusal}` },
      { type: 'text', text: 'cost: 0 credits' },
    ],
    _meta: { status: 400, cost: 0 },
    isError: true,
  };
}

/** A low-level MCP server for one caller: the tools list and each tool call as the HTTP call it stands for. */
export function mcpServer(version: string, dispatch: RouteDispatch): Server {
  const server = new Server({ name: 'coinop', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolsByName.get(request.params.name);
    if (tool === undefined) return { content: [{ type: 'text', text: `Unknown tool: ${request.params.name}` }], isError: true };
    const routeCall = routeCallOf(tool, request.params.arguments ?? {});
    return routeCall.ok ? toolResult(await dispatch(routeCall.call)) : refusalResult(routeCall.refusal);
  });
  return server;
}
