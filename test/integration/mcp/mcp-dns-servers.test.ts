import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { FAST, lookup, useDnsApp } from '../dns/route-fixtures.js';

/**
 * Which propagation servers a lookup may ask depends on the instance (OUTBOUND_ALLOW_CIDRS opens other ports on its
 * ranges), so the dns_lookup tool asks the instance's own lookup before the call: a server the route would refuse
 * and charge 5 credits for is refused free, one the operator allowed is asked.
 */
describeEachStore('MCP dns_lookup: propagation servers judged by the instance', (kind) => {
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
});
