import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('METRICS_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME', () => {
  it('default to an open /metrics and no tracing, service name coinop', () => {
    const config = loadConfig({});
    expect(config.metricsToken).toBeUndefined();
    expect(config.otel).toEqual({ endpoint: undefined, serviceName: 'coinop' });
  });

  it('take a token of 16 characters or more, an http(s) collector URL and a service name', () => {
    const config = loadConfig({
      METRICS_TOKEN: 'x'.repeat(16),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_SERVICE_NAME: 'coinop-eu',
    });
    expect(config.metricsToken).toBe('x'.repeat(16));
    expect(config.otel).toEqual({ endpoint: 'http://127.0.0.1:4318', serviceName: 'coinop-eu' });
  });

  it('refuse a short token and an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /^Invalid METRICS_TOKEN: must be at least 16 characters$/,
    );
    for (const endpoint of ['collector:4318', 'grpc://collector:4317']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        /^Invalid OTEL_EXPORTER_OTLP_ENDPOINT: must be an absolute http\(s\) URL$/,
      );
    }
  });
});
