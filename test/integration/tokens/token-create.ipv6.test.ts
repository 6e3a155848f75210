import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const FORM = 'application/x-www-form-urlencoded';

function createFrom(t: TestApp, ip: string, request: Partial<InjectOptions> = {}) {
  return t.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': FORM },
    payload: 'token=new',
    remoteAddress: ip,
    ...request,
  });
}

describeEachStore('POST /token rate limit keys IPv6 clients by their /64', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('answers 429 to a second creation within 10 s from another address of the same /64', async () => {
    expect((await createFrom(get(), '2001:db8::1')).statusCode).toBe(200);
    const second = await createFrom(get(), '2001:db8::2');
    expect([second.statusCode, second.body]).toEqual([429, 'Too Many Requests']);
    expect((await createFrom(get(), '2001:db8::ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    clock.advance(10_000);
    expect((await createFrom(get(), '2001:db8::3')).statusCode).toBe(200);
  });

  it('creates for clients of different /64s within the same 10 s', async () => {
    expect((await createFrom(get(), '2001:db8:0:10::1')).statusCode).toBe(200);
    expect((await createFrom(get(), '2001:db8:0:11::1')).statusCode).toBe(200);
  });

  it('counts an IPv4 client written IPv4-mapped and plain as one client', async () => {
    expect((await createFrom(get(), '::ffff:192.0.2.80')).statusCode).toBe(200);
    expect((await createFrom(get(), '192.0.2.80')).statusCode).toBe(429);
  });
});

describeEachStore('POST /token behind a trusted proxy keys forwarded IPv6 clients by their /64', (kind) => {
  const get = useTestApp(kind, { env: { TRUST_PROXY: '10.9.9.9' } });
  const viaProxy = (client: string) => ({ headers: { 'content-type': FORM, 'x-forwarded-for': client } });

  it('answers 429 to the second forwarded client of one /64, 200 to another /64', async () => {
    expect((await createFrom(get(), '10.9.9.9', viaProxy('2001:db8:7:7::1'))).statusCode).toBe(200);
    expect((await createFrom(get(), '10.9.9.9', viaProxy('2001:db8:7:7::2'))).statusCode).toBe(429);
    expect((await createFrom(get(), '10.9.9.9', viaProxy('2001:db8:7:8::1'))).statusCode).toBe(200);
  });
});
