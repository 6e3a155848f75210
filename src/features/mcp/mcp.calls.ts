import type { ValidateFunction } from 'ajv';
import { createAjv, describeValidationError } from '../../http/validation.js';
import { dotSegmentProblem } from '../../lib/path-segment.js';
import { MCP_TOOLS } from './mcp.tools.js';
import type { McpTool, RouteCall, ToolService } from './mcp.tools.js';

/** A tool call turned into its HTTP call, or refused before any call is made (and so charged nothing, logged nowhere). */
export type ToolCall =
  { readonly ok: true; readonly call: RouteCall } | { readonly ok: false; readonly refusal: string };

const refused = (refusal: string): ToolCall => ({ ok: false, refusal });

/**
 * Each tool's arguments are checked as its route checks its input: the same schema, compiled by the same Ajv settings
 * as the route's part (registerValidation): a JSON body strictly, params and query with text coerced to the declared
 * types; defaults applied either way.
 */
const coercing = createAjv(true);
const strict = createAjv(false);
const isJsonBody = (tool: McpTool): boolean => tool.body !== undefined && 'json' in tool.body;
const validators: ReadonlyMap<string, ValidateFunction> = new Map(
  MCP_TOOLS.map((tool) => [tool.name, (isJsonBody(tool) ? strict : coercing).compile(tool.inputSchema)]),
);

/** What a URL can carry as one parameter: text, a number or a boolean, written as text. */
const asText = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;

/** `.` and `..` cannot be one segment of a URL path: every URL parser (ours, the router's, a client's) resolves them away. */

/** The path of the call (a string), or its refusal. */
function pathOf(tool: McpTool, args: Record<string, unknown>): ToolCall | string {
  const segments: string[] = [];
  for (const part of tool.path.split('/')) {
    if (!part.startsWith(':')) {
      segments.push(part);
      continue;
    }
    const name = part.slice(1);
    const text = asText(args[name]);
    if (text === undefined)
      return refused(
        args[name] === undefined ? `Missing required field: ${name}` : `Invalid ${name}: must be a string`,
      );
    const dots = dotSegmentProblem(name, text);
    if (dots !== null) return refused(dots);
    segments.push(encodeURIComponent(text));
  }
  const path = segments.join('/');
  // However the arguments were written, the path the router sees is this tool's route and no other.
  const routed = new URL(path, 'http://localhost').pathname;
  const prefix = tool.path.split('/:')[0] ?? tool.path;
  if (routed !== path || !routed.startsWith(prefix))
    return refused(`Invalid arguments: the call would leave ${tool.method} ${tool.path}`);
  return path;
}

/** The query string of the call (a string, maybe empty), or its refusal. */
function queryOf(tool: McpTool, args: Record<string, unknown>): ToolCall | string {
  const search = new URLSearchParams();
  for (const name of tool.query ?? []) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    const text = asText(value);
    if (text === undefined) return refused(`Invalid ${name}: must be a string or a number`);
    search.set(name, text);
  }
  const query = search.toString();
  return query === '' ? '' : `?${query}`;
}

/**
 * The HTTP call a tool's arguments stand for, or the reason there is none. What the route would refuse without the
 * network is refused here, in its words and free: what its schema refuses, then what its own rules refuse (a typo
 * costs nothing; docs/reference.md#mcp-server). What the URL cannot carry faithfully (`.` or `..` as a path segment)
 * is refused too, so that no call ever reaches a route other than the tool's own. The arguments are sent as given:
 * the route validates them again, with the same result.
 */
export function routeCallOf(tool: McpTool, args: Record<string, unknown>, service: ToolService): ToolCall {
  const validate = validators.get(tool.name);
  const checked = structuredClone(args);
  if (validate !== undefined && !validate(checked))
    return refused(describeValidationError(validate.errors?.[0], isJsonBody(tool) ? 'body' : 'arguments'));
  const problem = tool.rules?.(checked, service) ?? null;
  if (problem !== null) return refused(problem);
  const path = pathOf(tool, args);
  if (typeof path !== 'string') return path;
  const query = queryOf(tool, args);
  if (typeof query !== 'string') return query;
  const call = { method: tool.method, url: path + query };
  if (tool.body === undefined) return { ok: true, call };
  if ('json' in tool.body) return { ok: true, call: { ...call, payload: args } };
  const text = asText(args[tool.body.text]);
  if (text === undefined) return refused(`Invalid ${tool.body.text}: must be a string`);
  return { ok: true, call: { ...call, payload: text, contentType: 'text/plain; charset=utf-8' } };
}
