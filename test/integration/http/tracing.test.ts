import { describe, expect, it } from 'vitest';
import { useCollector } from '../../helpers/otel-collector.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ok, received, useReceiver, webhookApi } from '../webhooks/webhook-fixtures.js';

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  const collector = useCollector();
  const { env: receiverEnv, receiver } = useReceiver();
  // Filled in by the collector's beforeAll, which runs before the app's.
  const env = Object.assign(collector.env, receiverEnv);
  const get = useTestApp('sqlite', { env });

  it('exports a span per request, with the store calls made for it as its children', async () => {
    const token = await get().createToken(10);
    const res = await get().inject({
      method: 'POST',
      url: '/kv/b/traced?ttl=60',
      headers: { 'x-token': token },
      payload: 'v',
    });
    expect(res.statusCode).toBe(200);
    await get().deps.tracing?.flush();

    const request = collector.spans.find(
      (span) => span.attributes['coinop.request_id'] === res.headers['x-request-id'],
    );
    expect(request).toMatchObject({ name: 'POST /kv/:bucket/:key', service: 'coinop-under-test' });
    expect(request?.attributes).toMatchObject({
      'http.route': '/kv/:bucket/:key',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    const children = collector.spans.filter((span) => span.parentSpanId === request?.spanId);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((span) => span.traceId === request?.traceId && span.name.startsWith('db '))).toBe(true);
    expect(children.some((span) => span.attributes['db.system.name'] === 'sqlite')).toBe(true);
    // The route pattern, never the URL or its query.
    expect(JSON.stringify(collector.spans)).not.toContain('traced?ttl');
  });

  it('a delivery is a span under the request that made it, naming the receiver by host only', async () => {
    const token = await get().createToken(100);
    receiver().respondWith({ status: 200, body: 'ok' });
    const api = webhookApi(get(), token);
    const created = ok(await api.create({ url: receiver().url('/hook?secret=abc123', '127.0.0.1') }));
    await received(receiver(), async () => expect((await api.test(String(created.webhookId))).statusCode).toBe(200));
    await get().deps.tracing?.flush();

    const delivery = collector.spans.find((span) => span.name === 'webhook delivery');
    expect(delivery?.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
      'coinop.delivered': true,
    });
    const parent = collector.spans.find((span) => span.spanId === delivery?.parentSpanId);
    expect(parent?.name).toBe('POST /webhook/:webhookId/test');
    expect(JSON.stringify(collector.spans)).not.toContain('abc123');
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const get = useTestApp('sqlite');

  it('has no tracing at all', () => {
    expect(get().deps.tracing).toBeUndefined();
  });
});
