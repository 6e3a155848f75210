// Fastify's inject() loads light-my-request on its first call (compiling its options validator then); every MCP tool
// call goes through inject(), so the first one of a process would pay for it. Loaded here, at start, instead.
import 'light-my-request';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { answerPost } from './mcp.server.js';
import type { PostAnswer, RouteDispatch } from './mcp.server.js';
import type { ToolService } from './mcp.tools.js';
import { createAddressPolicy } from '../../outbound/address-policy.js';

const JSON_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** What an agent sends first (initialize stands alone), then a batch of the other kinds of message the route serves. */
const WARM_UP_POSTS: readonly unknown[] = [
  {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'warm-up', version: '0' },
    },
  },
  [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'kv_set', arguments: { bucket: 'warm-up', key: 'k', value: 'v' } },
    },
  ],
];

/** Route calls answered in place: the warm-up charges, logs and stores nothing. */
const ANSWERED_IN_PLACE: RouteDispatch = async () => ({
  statusCode: 200,
  body: '',
  contentType: 'text/plain',
  cost: 0,
  balance: undefined,
});

/** The warm-up calls no tool that asks the service (kv_set only): the policy of an instance that allows nothing more. */
const NO_SERVICE_CHECKS: ToolService = { addressPolicy: createAddressPolicy([]) };

/**
 * Runs an agent's first POSTs through the SDK's transport and server and our tool layer once, when the routes are
 * registered. Otherwise the first POST /mcp of a process compiles the SDK's message schemas (zod compiles each on its
 * first use) and runs every function on its path cold: measured, ~25 ms of the event loop that every other wallet's
 * calls waited out (8-16 ms warmed, bench/RESULTS.md). Resolves to the answers, for tests to check.
 */
export async function warmUpMcp(version: string): Promise<PostAnswer[]> {
  const answers: PostAnswer[] = [];
  for (const body of WARM_UP_POSTS)
    answers.push(
      await answerPost(
        { version, dispatch: ANSWERED_IN_PLACE, service: NO_SERVICE_CHECKS },
        new Headers(JSON_HEADERS),
        body,
      ),
    );
  return answers;
}
