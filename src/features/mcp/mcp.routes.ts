import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import { SERVICE_VERSION } from '../../deps.js';
import { errors } from '../../errors.js';
import { drawFreeCall, MIN_TOKEN_LENGTH, usingDrawnFreeCall } from '../../http/metering.js';
import type { DrawnFreeCall } from '../../http/metering.js';
import type { WalletRef } from '../../ledger/ledger.js';
import { sha256Hex } from '../../lib/hash.js';
import { MAX_BATCH_MESSAGES } from './mcp.batch.js';
import { answerPost } from './mcp.server.js';
import type { RouteAnswer, RouteDispatch } from './mcp.server.js';
import { warmUpMcp } from './mcp.warm-up.js';

/** The caller's token: `Authorization: Bearer <token>` (what MCP clients send) or `x-token` (as everywhere else). */
function tokenOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const token = bearer ?? request.headers['x-token'];
  return typeof token === 'string' && token.length >= MIN_TOKEN_LENGTH ? token : undefined;
}

const numberHeader = (value: string | string[] | number | undefined): number | undefined => {
  const number = Number(value);
  return value === undefined || !Number.isFinite(number) ? undefined : number;
};

/**
 * Each tool call is the HTTP call it stands for, made in-process with the caller's token and address: metering
 * (cost, refusal, refunds), validation, errors and the log entry are the route's own, so an MCP call and the same
 * HTTP call cannot differ in what they charge or log. The one difference: the POST has drawn a free call already,
 * and the first of its tool calls that costs nothing uses that one (a free tool call draws once, not twice).
 */
/** One POST's caller, as its tool calls are made: its token and address, its drawn free call, what they cost so far. */
interface PostCaller {
  readonly token: string;
  readonly remoteAddress: string;
  readonly drawn: DrawnFreeCall;
  readonly spent: { cost: number };
}

function dispatchAs(app: FastifyInstance, { token, remoteAddress, drawn, spent }: PostCaller): RouteDispatch {
  return async (call): Promise<RouteAnswer> => {
    const headers: Record<string, string> = { 'x-token': token };
    if (call.contentType !== undefined) headers['content-type'] = call.contentType;
    const answer = await usingDrawnFreeCall(drawn, () =>
      app.inject({
        method: call.method,
        url: call.url,
        headers,
        payload: call.payload,
        remoteAddress,
      }),
    );
    const contentType = answer.headers['content-type'];
    const cost = numberHeader(answer.headers['x-cost']);
    spent.cost += cost ?? 0;
    return {
      statusCode: answer.statusCode,
      body: answer.body,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      cost,
      balance: numberHeader(answer.headers['x-balance']),
    };
  };
}

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The JSON-RPC error answered, with a 400, to a batch of more than MAX_BATCH_MESSAGES messages: nothing of it is run. */
const BATCH_TOO_LARGE = JSON.stringify({
  jsonrpc: '2.0',
  error: {
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: Batch must not exceed ${MAX_BATCH_MESSAGES} messages`,
  },
  id: null,
});

/**
 * MCP over Streamable HTTP, stateless: every POST gets its own server and transport (answerPost). GET (a
 * server-initiated stream) and DELETE (ending a session) have nothing to serve without sessions: they get the usual
 * 405, which MCP clients expect. The route itself charges and logs nothing; each tool call is charged and logged as
 * its HTTP call. The path is run once at start (warmUpMcp), so no wallet's first call runs it cold.
 */
export const mcpRoutes: FastifyPluginAsync<{ deps: Deps }> = async (app, { deps }) => {
  await warmUpMcp(SERVICE_VERSION);
  /** The wallet of each authenticated POST and the free call it has drawn, for its tool calls to use (see dispatchAs). */
  const drawnFor = new WeakMap<FastifyRequest, { drawn: DrawnFreeCall; wallet: WalletRef }>();
  /**
   * As every authenticated answer (docs/reference.md#mcp-server): `x-cost`, what the POST's tool calls were charged in
   * all (0 for initialize, tools/list, refusals), and `x-balance`, the wallet's balance as its last call left it.
   */
  const costHeaders = (reply: FastifyReply, wallet: WalletRef, cost: number): void => {
    void reply.header('x-cost', String(cost));
    void reply.header('x-balance', String(wallet.lastBalance));
  };
  const authenticate = async (request: FastifyRequest): Promise<void> => {
    const token = tokenOf(request);
    if (token === undefined) throw errors.unauthorized();
    const hash = sha256Hex(token);
    const wallet = deps.ledger.cachedWallet(hash) ?? (await deps.ledger.findWallet(hash));
    if (wallet === undefined) throw errors.unauthorized();
    // Every POST draws one free call (tools/list, initialize, …); its first free tool call uses it (dispatchAs).
    const spent = drawFreeCall(deps, wallet.id);
    if (spent !== undefined) throw spent;
    drawnFor.set(request, { drawn: { walletId: wallet.id, used: false }, wallet });
  };

  app.post('/mcp', { schema: { hide: true }, onRequest: authenticate }, async (request, reply) => {
    const caller = drawnFor.get(request);
    if (caller === undefined) throw errors.unauthorized();
    if (Array.isArray(request.body) && request.body.length > MAX_BATCH_MESSAGES) {
      // As the SDK's transport refuses a batch over its own (larger) bound, so that clients read it alike.
      costHeaders(reply, caller.wallet, 0);
      return reply.code(400).type('application/json').send(BATCH_TOO_LARGE);
    }
    const token = tokenOf(request) ?? '';
    const spent = { cost: 0 };
    const remoteAddress = request.client.address || request.ip;
    const dispatch = dispatchAs(app, { token, remoteAddress, drawn: caller.drawn, spent });
    const runtime = { version: SERVICE_VERSION, dispatch, service: deps };
    const answer = await answerPost(runtime, webHeaders(request), request.body);
    void reply.code(answer.status);
    answer.headers.forEach((value, name) => void reply.header(name, value));
    costHeaders(reply, caller.wallet, spent.cost);
    return answer.body;
  });
};
