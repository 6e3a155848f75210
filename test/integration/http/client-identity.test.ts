import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';

// Every per-client limit keys on one identity, derived once per request (src/http/client-identity.ts): how the
// forwarded address is written (a port, brackets, junk) must not make a new client of an old one.
const PROXY = '10.9.9.9';
const FORM = 'application/x-www-form-urlencoded';

function createVia(t: TestApp, forwardedFor: string | undefined, remoteAddress = PROXY) {
  const headers: Record<string, string> = { 'content-type': FORM };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return t.inject({
    method: 'POST',
    url: '/token',
    headers,
    payload: 'token=new',
    remoteAddress,
  } satisfies InjectOptions);
}

async function statuses(t: TestApp, forwarded: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const client of forwarded) out.push((await createVia(t, client)).statusCode);
  return out;
}

async function myIpVia(t: TestApp, forwardedFor: string): Promise<{ ip: string; ipv6: string }> {
  const token = await t.createToken(10);
  const res = await t.inject({
    method: 'GET',
    url: '/myip',
    remoteAddress: PROXY,
    headers: { 'x-token': token, 'x-forwarded-for': forwardedFor },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describeEachStore('client identity behind a trusted proxy: how an address is written makes no new client', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock, env: { TRUST_PROXY: PROXY } });

  it('mints one token for an IPv4 client whatever port X-Forwarded-For gives it', async () => {
    expect(
      await statuses(get(), [
        '203.0.113.7:1111',
        '203.0.113.7:2222',
        '203.0.113.7',
        '::ffff:203.0.113.7',
        '[::ffff:203.0.113.7]:80',
      ]),
    ).toEqual([200, 429, 429, 429, 429]);
  });

  it('mints one token for an IPv6 /64 written bracketed, with a port, or bare', async () => {
    expect(
      await statuses(get(), ['[2001:db8:1:2::1]:443', '[2001:db8:1:2::2]:444', '[2001:db8:1:2::3]', '2001:db8:1:2::4']),
    ).toEqual([200, 429, 429, 429]);
  });

  it('mints at most one token for any number of entries that are no address', async () => {
    const junk = ['junk', 'unknown', 'x:1', '[nope]:1', '203.0.113.300', '1.2.3.4:port', '_hidden', 'z'.repeat(500)];
    const answers = await statuses(get(), junk);
    expect(answers.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
    expect(answers.filter((status) => status === 429).length).toBeGreaterThanOrEqual(junk.length - 1);
  });

  it('/myip reports the full address the creation limit keys on: the port is gone, the /64 is one client', async () => {
    clock.advance(10_000);
    expect(await myIpVia(get(), '198.51.100.8:5555')).toMatchObject({ ip: '198.51.100.8', ipv6: '' });
    expect(await myIpVia(get(), '[2001:db8:5:5::9]:443')).toMatchObject({ ip: '', ipv6: '2001:db8:5:5::9' });
    expect((await createVia(get(), '198.51.100.8')).statusCode).toBe(200);
    expect((await createVia(get(), '198.51.100.8:5555')).statusCode).toBe(429);
    expect((await createVia(get(), '2001:db8:5:5::9')).statusCode).toBe(200);
    expect((await createVia(get(), '[2001:db8:5:5::7]:80')).statusCode).toBe(429);
  });

  it('takes a forwarded entry that is no address for the proxy that sent it, in /myip and in the creation limit alike', async () => {
    clock.advance(10_000);
    expect(await myIpVia(get(), 'garbage')).toMatchObject({ ip: PROXY, ipv6: '' });
    expect((await createVia(get(), 'garbage')).statusCode).toBe(200);
    expect((await createVia(get(), undefined)).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    clock.advance(10_000);
    expect((await createVia(get(), '203.0.113.50', '198.51.100.99')).statusCode).toBe(200);
    expect((await createVia(get(), '203.0.113.51', '198.51.100.99')).statusCode).toBe(429);
  });
});
