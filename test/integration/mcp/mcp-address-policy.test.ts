import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { FAST, lookup, useDnsApp } from '../dns/route-fixtures.js';

/**
 * Which addresses a call may reach depends on the instance (OUTBOUND_ALLOW_CIDRS opens ranges, and other DNS ports on
 * them), so the tools ask the instance's own policy before the call: a propagation server or a page address the route
 * would refuse and charge for (5 credits, 1) is refused free, one the operator allowed is asked.
 */
describeEachStore('MCP tools: addresses judged by the instance before the call', (kind) => {
  const { app, dns } = useDnsApp(kind, { allowLoopback: true });
  let client: Client | undefined;
  let token = '';

  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app().app.server.address() as AddressInfo).port}`;
    token = await app().createToken(100);
    client = new Client({ name: 'coinop-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers: { 'x-token': token } } }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  const callLookup = async (servers: string[]) => {
    if (client === undefined) throw new Error('no client');
    const args = { domains: ['example.test'], checkPropagation: true, propagationServers: servers, ...FAST };
    return (await client.callTool({ name: 'dns_lookup', arguments: args })) as CallToolResult;
  };
  const textOf = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');

  it('refuses, free and in the route’s words, a server written as an address the route refuses', async () => {
    const overHttp = await app().createToken(100);
    for (const servers of [['10.9.8.7'], ['9.9.9.9:5353'], ['resolver.test', '[fd00::1]'], ['9.9.9.9', '::1:53']]) {
      const http = await lookup(app(), overHttp, {
        domains: ['example.test'],
        checkPropagation: true,
        propagationServers: servers,
        ...FAST,
      });
      expect([http.statusCode, http.headers['x-cost']], servers.join()).toEqual([400, '5']);
      const result = await callLookup(servers);
      expect([result.isError, textOf(result), result._meta]).toEqual([
        true,
        `400 ${http.body}`,
        { status: 400, cost: 0 },
      ]);
    }
    const wallet = await app().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(wallet.json<{ wallet: number }>().wallet).toBe(99); // only this GET /token
  });

  it('asks a server on another port inside OUTBOUND_ALLOW_CIDRS, as the route does, and charges the lookup', async () => {
    const result = await callLookup([dns().address]);
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(result._meta).toMatchObject({ status: 200, cost: 5 });
    const body = JSON.parse(textOf(result)) as { results: { propagationResults: { servers: object }[] }[] };
    expect(Object.keys(body.results[0]?.propagationResults[0]?.servers ?? {})).toEqual([dns().address]);
  });

  it('refuses, free and in the route’s words, a page whose host is an address the route refuses', async () => {
    if (client === undefined) throw new Error('no client');
    const overHttp = await app().createToken(100);
    for (const url of ['https://10.9.8.7/', 'http://[fd00::1]:8080/page', 'https://169.254.169.254/latest']) {
      const http = await app().inject({
        method: 'POST',
        url: '/url-to-metadata',
        headers: { 'x-token': overHttp, 'content-type': 'application/json' },
        payload: { url },
      });
      expect([http.statusCode, http.headers['x-cost']], url).toEqual([400, '1']);
      const result = (await client.callTool({ name: 'url_metadata', arguments: { url } })) as CallToolResult;
      const wording = JSON.parse(http.body) as { error: string };
      expect([result.isError, textOf(result), result._meta]).toEqual([
        true,
        `400 ${wording.error}`,
        { status: 400, cost: 0 },
      ]);
    }
  });

  it('fetches a page on an address inside OUTBOUND_ALLOW_CIDRS, as the route does (here: nothing listens, 502, free)', async () => {
    if (client === undefined) throw new Error('no client');
    const closed = await closedPort();
    const result = (await client.callTool({
      name: 'url_metadata',
      arguments: { url: `http://127.0.0.1:${closed}/` },
    })) as CallToolResult;
    expect(result._meta).toMatchObject({ status: 502, cost: 0 });
  });
});

/** A loopback port nothing listens on (one just freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
