import { afterAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { sha256Hex } from '../../../src/lib/hash.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';

type Line = Record<string, unknown>;

/** Every line the process wrote that is JSON (its stdout: pino's lines and the access lines); the others throw. */
function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

async function newToken(url: string): Promise<string> {
  const created = await fetch(`${url}/token`, {
    method: 'POST',
    body: 'token=new',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return created.text();
}

/** The text of every serialized Buffer (`{"type":"Buffer","data":[…]}`) anywhere in `value`. */
function buffersIn(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (type === 'Buffer' && Array.isArray(data)) return Buffer.from(data as number[]).toString('latin1');
  return Object.values(value).map(buffersIn).join('\n');
}

/** Writes `head` on a raw connection and reads until the server closes it: the answer's status and x-request-id. */
async function rawExchange(url: string, head: string): Promise<{ status: number; id: string }> {
  const { hostname, port } = new URL(url);
  const received = await new Promise<string>((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    socket.write(head);
  });
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]),
    id: /\r\nx-request-id: ([^\r]+)/i.exec(received)?.[1] ?? '',
  };
}

/** SIGTERM, then the exit code. */
async function stop(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGTERM');
  return server.exited;
}

describe('the access log of the real service (stdout)', () => {
  const databases: ScratchDatabase[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) await stop(server);
    for (const database of databases) await database.drop();
  });
  const start = async (logLevel: string): Promise<ServerProcess> => {
    const database = await scratchDatabase('sqlite');
    databases.push(database);
    const server = await startServerProcess({ DATABASE_URL: database.url, LOG_LEVEL: logLevel });
    servers.push(server);
    return server;
  };

  it('has one line per answer, every one written by a graceful stop, in order, with no token, hash or query', async () => {
    const server = await start('info');
    const token = await newToken(server.url);
    const answers: { id: string; status: number; method: string; route: string }[] = [];
    const call = async (method: string, path: string, route: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${path}`, { method, ...init });
      await response.arrayBuffer();
      answers.push({ id: response.headers.get('x-request-id') ?? '', status: response.status, method, route });
    };
    await call('POST', '/kv/b/k?ttl=60', '/kv/:bucket/:key', { headers: { 'x-token': token }, body: 'v' });
    // The token wherever a careless log would pick it up: a query string, a path, a refused header, a hostile id.
    await call('GET', `/kv/b/k?token=${token}`, '/kv/:bucket/:key', { headers: { 'x-token': token } });
    await call('GET', `/no-such-page/${token}?token=${token}`, '(unmatched)');
    await call('GET', '/kv/b/%22%7D%0A%7B%22level%22:60', '/kv/:bucket/:key', {
      headers: { 'x-token': `${token}x`, 'x-request-id': '"},{"level":60' },
    });
    // The last ones answered just before the signal: their lines are still in the batch when it comes.
    for (let i = 0; i < 30; i++) {
      await call('GET', '/kv/b/k', '/kv/:bucket/:key', { headers: { 'x-token': token } });
    }
    expect(await stop(server)).toBe(0);

    const lines = jsonLines(server.output());
    const access = lines.filter((line) => line.msg === 'request');
    for (const answer of answers) {
      const mine = access.filter((line) => line.reqId === answer.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 30, method: answer.method, route: answer.route, status: answer.status });
      expect(Object.keys(mine[0]!).slice(0, 9)).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'method',
        'route',
        'status',
        'ms',
      ]);
      expect(typeof mine[0]!.time).toBe('number'); // epoch milliseconds, as pino writes it
      expect(mine[0]!.pid).toBe(server.child.pid);
    }
    const paid = access.find((line) => line.reqId === answers[0]!.id);
    expect(paid).toMatchObject({ cost: 1, wallet: sha256Hex(token).slice(0, 8) });

    // In the order they were made: started, the access lines, stopping, stopped.
    const position = (line: Line | undefined) => lines.indexOf(line!);
    const started = position(lines.find((line) => line.msg === 'coinop started'));
    const stopping = position(lines.find((line) => line.msg === 'stopping: draining requests'));
    expect(started).toBeGreaterThanOrEqual(0);
    for (const answer of answers) {
      const at = position(access.find((line) => line.reqId === answer.id));
      expect(at).toBeGreaterThan(started);
      expect(at).toBeLessThan(stopping);
    }
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });

    const output = server.output();
    expect(output).not.toContain(token);
    expect(output).not.toContain(sha256Hex(token));
    expect(output).not.toContain('no-such-page');
    expect(output).not.toContain('ttl=60');
  });

  it('has a line for each answer given before a request exists: 408, 431, an unparsable head, CONNECT', async () => {
    const database = await scratchDatabase('sqlite');
    databases.push(database);
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
    });
    servers.push(server);
    const answers = [
      // Headers never finished: cut at the headers timeout.
      { ...(await rawExchange(server.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n')), method: undefined },
      {
        ...(await rawExchange(server.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)),
        method: undefined,
      },
      { ...(await rawExchange(server.url, 'NOT HTTP AT ALL\r\n\r\n')), method: undefined },
      {
        ...(await rawExchange(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n')),
        method: 'CONNECT',
      },
    ];
    expect(answers.map((answer) => answer.status)).toEqual([408, 431, 400, 405]);
    expect(await stop(server)).toBe(0);

    const access = jsonLines(server.output()).filter((line) => line.msg === 'request');
    for (const answer of answers) {
      expect(answer.id).not.toBe('');
      const mine = access.filter((line) => line.reqId === answer.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 30, route: '(unmatched)', status: answer.status });
      expect(mine[0]!.method).toBe(answer.method);
      expect(mine[0]).not.toHaveProperty('cost');
    }
  });

  it('writes no token or operator token at LOG_LEVEL=debug, in heads Node refuses included', async () => {
    const database = await scratchDatabase('sqlite');
    databases.push(database);
    const adminToken = 'operator-secret-in-a-head-0123';
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'debug',
      ADMIN_TOKEN: adminToken,
    });
    servers.push(server);
    const token = await newToken(server.url);
    const heads = [
      `GET /kv/a/b HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\nbad header\r\n\r\n`,
      `GET /kv/a/b HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `POST /manage/stats HTTP/1.1\r\nHost: x\r\nx-admin-token: ${adminToken}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
    ];
    for (const head of heads) expect((await rawExchange(server.url, head)).status).toBeGreaterThanOrEqual(400);
    expect(await stop(server)).toBe(0);
    expect(server.output()).toContain('client error'); // the debug lines were written…
    // …without what the heads carried, as text or as the bytes of a serialized Buffer.
    const written = server.output() + buffersIn(jsonLines(server.output()));
    expect(written).not.toContain(token);
    expect(written).not.toContain(adminToken);
  });

  it('has none at LOG_LEVEL=warn', async () => {
    const server = await start('warn');
    const token = await newToken(server.url);
    for (let i = 0; i < 5; i++) await (await fetch(`${server.url}/kv/b/k`, { headers: { 'x-token': token } })).text();
    expect(await stop(server)).toBe(0);
    expect(jsonLines(server.output()).filter((line) => line.msg === 'request')).toEqual([]);
    expect(server.output()).not.toContain('"reqId"');
  });
});
