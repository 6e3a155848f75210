import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLineFormat, jsonString } from '../../../src/observability/access-line.js';

/** A pino logger whose lines land in `lines`, with the time fixed so two lines can be compared byte for byte. */
function capturing(options: pino.LoggerOptions = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'info', timestamp: () => ',"time":1795850000123', ...options }, stream);
  return { logger, lines };
}

/** What pino itself writes for the access line's fields (the code before the line was made by hand). */
async function pinoLine(
  options: pino.LoggerOptions,
  fields: { reqId: string; method: string; route: string; status: number; ms: number; cost?: number; wallet?: string },
): Promise<string> {
  const { logger, lines } = capturing(options);
  logger.info(fields, 'request');
  await new Promise((resolve) => setImmediate(resolve));
  return lines[0]!;
}

describe('the access line', () => {
  it('is byte for byte the line pino writes for the same fields', async () => {
    const fields = {
      reqId: 'a1B2c3D4e5F6-1z',
      method: 'POST',
      route: '/kv/:bucket/:key',
      status: 200,
      ms: 0.84,
      cost: 1,
      wallet: '3f2a9c1e',
    };
    const { logger } = capturing();
    const made = new AccessLineFormat(logger).format(fields);
    expect(made).toBe(await pinoLine({}, fields));
    expect(made).toBe(
      `{"level":30,"time":1795850000123,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},` +
        '"reqId":"a1B2c3D4e5F6-1z","method":"POST","route":"/kv/:bucket/:key","status":200,"ms":0.84,"cost":1,' +
        '"wallet":"3f2a9c1e","msg":"request"}\n',
    );
  });

  it('leaves cost and wallet out when there are none, as pino leaves out what is undefined', async () => {
    const { logger } = capturing();
    const made = new AccessLineFormat(logger).format({
      reqId: 'r-1',
      method: 'GET',
      route: '(unmatched)',
      status: 404,
      ms: 0.1,
      cost: undefined,
      wallet: undefined,
    });
    expect(made).toBe(await pinoLine({}, { reqId: 'r-1', method: 'GET', route: '(unmatched)', status: 404, ms: 0.1 }));
    expect(JSON.parse(made)).not.toHaveProperty('cost');
    expect(JSON.parse(made)).not.toHaveProperty('wallet');
  });

  it("keeps the logger's own time (epoch milliseconds by default), level and bindings", async () => {
    const epoch = pino({ level: 'info' }, new Writable({ write: (_c, _e, done) => done() }));
    const before = Date.now();
    const line = JSON.parse(
      new AccessLineFormat(epoch).format({
        reqId: 'r',
        method: 'GET',
        route: '/healthz',
        status: 200,
        ms: 1,
        cost: undefined,
        wallet: undefined,
      }),
    ) as {
      time: number;
      level: number;
      pid: number;
      hostname: string;
      msg: string;
    };
    expect(line.time).toBeGreaterThanOrEqual(before);
    expect(line.time).toBeLessThanOrEqual(Date.now());
    expect(line).toMatchObject({ level: 30, pid: process.pid, hostname: hostname(), msg: 'request' });

    const iso = { timestamp: pino.stdTimeFunctions.isoTime, base: { service: 'coinop' } };
    const { logger } = capturing(iso);
    const made = new AccessLineFormat(logger).format({
      reqId: 'r',
      method: 'GET',
      route: '/healthz',
      status: 200,
      ms: 1,
      cost: undefined,
      wallet: undefined,
    });
    expect(made).toMatch(/^\{"level":30,"time":"\d{4}-\d\d-\d\dT[^"]+Z","service":"coinop","reqId":"r"/);
  });

  it('cannot be broken by a hostile method, route or request id: one line, the same texts back', () => {
    const { logger } = capturing();
    const format = new AccessLineFormat(logger);
    const hostile = [
      'GET","status":500,"x":"',
      '/kv/"}\n{"level":60,"msg":"forged',
      'back\\slash\\',
      'control\u0000\u0001\u001f\u007f',
      'separators\u2028\u2029',
      'lone surrogate \ud800 and \udfff',
      'non-ASCII: ünïcødé ✓ 🚀',
      '',
    ];
    for (const text of hostile) {
      const made = format.format({
        reqId: text,
        method: text,
        route: text,
        status: 400,
        ms: 2.5,
        cost: Number.NaN,
        wallet: text,
      });
      expect(made.endsWith('\n')).toBe(true);
      expect(made.slice(0, -1)).not.toContain('\n');
      const parsed = JSON.parse(made) as Record<string, unknown>;
      expect(parsed).toMatchObject({ level: 30, reqId: text, route: text, wallet: text, msg: 'request' });
      // No method is left out (an answer given before a request exists), never written empty.
      expect(parsed.method).toBe(text === '' ? undefined : text);
      expect(parsed.status).toBe(400);
      expect(parsed.cost).toBeNull(); // as pino writes a number that is not finite
    }
  });

  it('escapes text exactly as JSON.stringify does, every UTF-16 unit', () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      const text = `a${String.fromCharCode(unit)}b`;
      expect(jsonString(text)).toBe(JSON.stringify(text));
    }
    expect(jsonString('/kv/:bucket/:key')).toBe('"/kv/:bucket/:key"');
  });
});
