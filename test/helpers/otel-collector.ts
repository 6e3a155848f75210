import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly service: unknown;
}

/** OTLP/HTTP JSON attribute values: { stringValue } | { intValue } | { boolValue } … */
function attributesOf(list: { key: string; value: Record<string, unknown> }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/** A loopback OpenTelemetry collector: keeps every span POSTed to /v1/traces. */
export function useCollector() {
  const spans: ReceivedSpan[] = [];
  let server: Server | undefined;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          const payload = JSON.parse(body) as { resourceSpans: any[] };
          for (const resourceSpan of payload.resourceSpans) {
            const service = attributesOf(resourceSpan.resource?.attributes)['service.name'];
            for (const scope of resourceSpan.scopeSpans)
              for (const span of scope.spans)
                spans.push({ ...span, attributes: attributesOf(span.attributes), service });
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
    env.OTEL_SERVICE_NAME = 'coinop-under-test';
  });
  afterAll(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));
  return { env, spans };
}
