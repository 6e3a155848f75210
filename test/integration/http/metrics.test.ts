import { beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock } from '../../helpers/app.js';
import { OPEN_SCRAPES } from '../../../src/observability/metrics.routes.js';
import { ok, received, useReceiver, webhookApi } from '../webhooks/webhook-fixtures.js';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of the one sample of `metric` whose labels include `labels`; undefined when there is none. */
function sample(text: string, metric: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== metric) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([name, value]) => found[name] === value)) return Number(match[3]);
  }
  return undefined;
}

describeEachStore('GET /metrics', (kind) => {
  const get = useTestApp(kind);
  const scrape = async (): Promise<string> => {
    const res = await get().inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('answers Prometheus text, free and unmetered, outside the public OpenAPI description', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: '/metrics', headers: { 'x-token': token } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT);
    expect(res.headers['x-cost']).toBeUndefined();
    expect(res.body).toMatch(/^# HELP /m);
    // Process metrics (prom-client's defaults) are there too. (Its CPU counter adds the time used since the app's
    // registry was made, which a fast first scrape can see as 0: present is what counts here.)
    expect(sample(res.body, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    const doc = (await get().inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    // The wallet paid nothing for the scrape: only what GET /token itself costs is gone.
    const info = await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(Number(info.headers['x-balance'])).toBe(5 - Number(info.headers['x-cost']));
  });

  it('a KV set moves the KV counter, the credits charged and the request histogram; a 402 counts as refused', async () => {
    const before = await scrape();
    const rich = await get().createToken(10);
    const poor = await get().createToken(0);
    const set = await get().inject({
      method: 'POST',
      url: '/kv/metrics-bucket/secret-key-42',
      headers: { 'x-token': rich },
      payload: 'v',
    });
    expect(set.statusCode).toBe(200);
    const refused = await get().inject({
      method: 'GET',
      url: '/kv/metrics-bucket/secret-key-42',
      headers: { 'x-token': poor },
    });
    expect(refused.statusCode).toBe(402);
    const after = await scrape();

    const delta = (metric: string, labels: Record<string, string>) =>
      (sample(after, metric, labels) ?? 0) - (sample(before, metric, labels) ?? 0);
    expect(delta('coinop_kv_operations_total', { operation: 'set' })).toBe(1);
    expect(delta('coinop_credits_charged_total', { category: 'kv' })).toBe(1);
    expect(delta('coinop_charges_refused_total', { category: 'kv' })).toBe(1);
    const route = '/kv/:bucket/:key';
    expect(delta('coinop_http_request_duration_seconds_count', { method: 'POST', route, status_code: '200' })).toBe(1);
    expect(delta('coinop_http_request_duration_seconds_count', { method: 'GET', route, status_code: '402' })).toBe(1);
    expect(
      sample(after, 'coinop_http_request_duration_seconds_bucket', {
        method: 'POST',
        route,
        status_code: '200',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);
    // The route pattern, never the URL: what callers put in paths stays out of the metrics.
    expect(after).not.toContain('secret-key-42');
    expect(sample(after, 'coinop_call_log_buffer_rows')).toBeGreaterThanOrEqual(0);
  });

  it('a request no route matches is counted under one label, not its URL', async () => {
    const before =
      sample(await scrape(), 'coinop_http_request_duration_seconds_count', {
        route: '(unmatched)',
        status_code: '404',
      }) ?? 0;
    await get().inject({ method: 'GET', url: '/no/such/path-7f3a' });
    const after = await scrape();
    expect(
      sample(after, 'coinop_http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' }),
    ).toBe(before + 1);
    expect(after).not.toContain('path-7f3a');
  });

  it('reports the store: group commits and fsyncs on SQLite, the pool on PostgreSQL', async () => {
    const token = await get().createToken(10);
    await get().inject({ method: 'POST', url: '/kv/b/k', headers: { 'x-token': token }, payload: 'v' });
    const text = await scrape();
    if (kind === 'sqlite') {
      expect(sample(text, 'coinop_sqlite_group_commit_writes_count')).toBeGreaterThan(0);
      expect(sample(text, 'coinop_sqlite_fsync_duration_seconds_count')).toBeGreaterThan(0);
    } else {
      expect(sample(text, 'coinop_postgres_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'coinop_postgres_pool_connections', { state: 'waiting' })).toBe(0);
    }
  });
});

describeEachStore('GET /metrics counts deliveries by trigger and outcome', (kind) => {
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { env });
  let token: string;
  beforeEach(async () => {
    token = await get().createToken(100);
    receiver().respondWith({ status: 200, body: 'ok' });
  });

  it('a test delivery that the receiver accepts counts as trigger=test, outcome=success, with its duration', async () => {
    const labels = { trigger: 'test', outcome: 'success' };
    const count = async () =>
      sample(
        (await get().inject({ method: 'GET', url: '/metrics' })).body,
        'coinop_delivery_duration_seconds_count',
        labels,
      ) ?? 0;
    const before = await count();
    const api = webhookApi(get(), token);
    const created = ok(await api.create({ url: receiver().url('/hook', '127.0.0.1') }));
    await received(receiver(), async () => expect((await api.test(String(created.webhookId))).statusCode).toBe(200));
    expect(await count()).toBe(before + 1);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const clock = new ManualClock();
  const get = useTestApp('sqlite', { clock });
  const scrapeFrom = (remoteAddress: string) => get().inject({ method: 'GET', url: '/metrics', remoteAddress });

  it('limits each client to bursts of 60 scrapes, then 10 a second, with 429 and retry-after; other clients are not held', async () => {
    for (let i = 0; i < OPEN_SCRAPES.burst; i++) expect((await scrapeFrom('198.51.100.80')).statusCode).toBe(200);
    const refused = await scrapeFrom('198.51.100.80');
    expect([refused.statusCode, refused.body, refused.headers['retry-after']]).toEqual([429, 'Too Many Requests', '1']);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await scrapeFrom('198.51.100.81')).statusCode).toBe(200);
    clock.advance(100); // one scrape earned back
    expect((await scrapeFrom('198.51.100.80')).statusCode).toBe(200);
    expect((await scrapeFrom('198.51.100.80')).statusCode).toBe(429);
  });
});

describe('METRICS_TOKEN', () => {
  const get = useTestApp('sqlite', { env: { METRICS_TOKEN } });
  const scrapeWith = (authorization?: string): Promise<LightMyRequestResponse> =>
    get().inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  it('is required as a bearer token when set: 401 in plain text without it or with another', async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, METRICS_TOKEN, `Basic ${METRICS_TOKEN}`]) {
      const res = await scrapeWith(authorization);
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('Unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    const res = await scrapeWith(`Bearer ${METRICS_TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT);
    // The scheme's name ignores case.
    for (const scheme of ['bearer', 'BEARER'])
      expect((await scrapeWith(`${scheme} ${METRICS_TOKEN}`)).statusCode).toBe(200);
  });

  it('throttles wrong tokens per client: after 10 in a minute even the right one is answered 429, other clients are not held', async () => {
    const scrapeFrom = (remoteAddress: string, token: string) =>
      get().inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` }, remoteAddress });
    for (let i = 0; i < 10; i++)
      expect((await scrapeFrom('198.51.100.70', `${METRICS_TOKEN}${i}`)).statusCode).toBe(401);
    const refused = await scrapeFrom('198.51.100.70', METRICS_TOKEN);
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('Too Many Requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await scrapeFrom('198.51.100.71', METRICS_TOKEN)).statusCode).toBe(200);
  });
});
