import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';

/** Every line the service's logger writes, parsed. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, raw };
}

describe('access log: one pino line per request at info', () => {
  const captured = capturedLogger();
  const get = useTestApp('sqlite', { overrides: () => ({ logger: captured.logger }) });
  const requestLines = () => captured.lines.filter((line) => line.msg === 'request');

  it('method, route pattern, status, ms, cost, wallet hash prefix and request id; never a token', async () => {
    const token = await get().createToken(10);
    const before = requestLines().length;
    const set = await get().inject({
      method: 'POST',
      url: '/kv/b/k?ttl=60',
      headers: { 'x-token': token },
      payload: 'v',
    });
    expect(set.statusCode).toBe(200);
    // The token in every place a careless log could pick it up: a header on a refused call, the query string of a 404.
    await get().inject({ method: 'GET', url: '/kv/b/k', headers: { 'x-token': `${token}x` } });
    await get().inject({ method: 'GET', url: `/no-such-page?token=${token}` });
    await get().inject({ method: 'GET', url: '/kv/b/%FF', headers: { 'x-token': token } });

    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(4);
    const [paid, unauthorized, notFound, badUrl] = lines as Record<string, unknown>[];
    expect(paid).toMatchObject({
      level: 30,
      reqId: set.headers['x-request-id'],
      method: 'POST',
      route: '/kv/:bucket/:key',
      status: 200,
      cost: 1,
      wallet: sha256Hex(token).slice(0, 8),
    });
    expect(typeof paid?.ms).toBe('number');
    expect(unauthorized).toMatchObject({ method: 'GET', route: '/kv/:bucket/:key', status: 401 });
    expect(unauthorized?.wallet).toBeUndefined();
    expect(notFound).toMatchObject({ method: 'GET', route: '(unmatched)', status: 404, reqId: expect.any(String) });
    expect(badUrl).toMatchObject({ method: 'GET', route: '(unmatched)', status: 400 });

    const everything = captured.raw.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(sha256Hex(token));
    expect(everything).not.toContain('no-such-page');
  });

  it('is off when LOG_LEVEL is above info', async () => {
    await get().inject({ method: 'GET', url: '/healthz' });
    const before = requestLines().length;
    expect(requestLines().at(-1)).toMatchObject({ route: '/healthz', status: 200 });
    get().deps.logger.level = 'warn';
    try {
      await get().inject({ method: 'GET', url: '/healthz' });
    } finally {
      get().deps.logger.level = 'info';
    }
    expect(requestLines().length).toBe(before);
  });
});
