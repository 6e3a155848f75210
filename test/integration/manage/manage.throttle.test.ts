import { Writable } from 'node:stream';
import pino from 'pino';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ADMIN_TOKEN, expectPlain } from './operator.js';

// Wrong operator tokens are throttled per client identity (src/http/client-identity.ts): a run of wrong guesses
// is answered 429 for a while, the right token included, and logged as a warning that never holds the token.
const PROXY = '10.9.9.9';
const WRONG = 'operator-secret-wrong-00';

function capturedWarnings() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines, raw };
}

function readAs(t: TestApp, adminToken: string, from: { remoteAddress: string; forwardedFor?: string }) {
  const headers: Record<string, string> = { 'x-admin-token': adminToken };
  if (from.forwardedFor !== undefined) headers['x-forwarded-for'] = from.forwardedFor;
  return t.inject({
    method: 'GET',
    url: `/manage/wallets/${'f'.repeat(64)}`,
    headers,
    remoteAddress: from.remoteAddress,
  });
}

describeEachStore('operator token guessing is throttled per client', (kind) => {
  const clock = new ManualClock();
  const log = capturedWarnings();
  const get = useTestApp(kind, {
    clock,
    env: { ADMIN_TOKEN, TRUST_PROXY: PROXY },
    overrides: () => ({ logger: log.logger }),
  });

  it('answers 429 with retry-after after 10 wrong tokens in a minute, even to the right one, until the wait is over', async () => {
    const guesser = { remoteAddress: '198.51.100.30' };
    for (let i = 0; i < 10; i++) expectPlain(await readAs(get(), `${WRONG}${i}`, guesser), 403, 'Forbidden');
    const refused = await readAs(get(), WRONG, guesser);
    expectPlain(refused, 429, 'Too Many Requests');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expectPlain(await readAs(get(), ADMIN_TOKEN, guesser), 429, 'Too Many Requests');
    // Another client is not held back by the guesser.
    expectPlain(await readAs(get(), ADMIN_TOKEN, { remoteAddress: '198.51.100.31' }), 404, 'Not Found');
    clock.advance(wait * 1000);
    expectPlain(await readAs(get(), ADMIN_TOKEN, guesser), 404, 'Not Found');
  });

  it('counts the guesses of one client as one, however the proxy writes its address', async () => {
    const forms = [
      '203.0.113.40:1000',
      '203.0.113.40:1001',
      '203.0.113.40',
      '::ffff:203.0.113.40',
      '[::ffff:203.0.113.40]:7',
    ];
    for (let i = 0; i < 10; i++) {
      const res = await readAs(get(), `${WRONG}${i}`, { remoteAddress: PROXY, forwardedFor: forms[i % forms.length] });
      expectPlain(res, 403, 'Forbidden');
    }
    expectPlain(
      await readAs(get(), ADMIN_TOKEN, { remoteAddress: PROXY, forwardedFor: '203.0.113.40:4242' }),
      429,
      'Too Many Requests',
    );
  });

  it('logs a warning naming the client, never the tokens tried', async () => {
    const warnings = log.lines.filter(
      (line) => line.level === 40 && line.msg === 'operator token: too many wrong guesses',
    );
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(warnings.map((line) => line.client)).toEqual(expect.arrayContaining(['198.51.100.30', '203.0.113.40']));
    const everything = log.raw.join('\n');
    expect(everything).not.toContain(WRONG);
    expect(everything).not.toContain(ADMIN_TOKEN);
  });
});
