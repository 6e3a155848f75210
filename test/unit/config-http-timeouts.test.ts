import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS', () => {
  it('default to 10 s for the head and 30 s for the whole request', () => {
    const config = loadConfig({});
    expect([config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs]).toEqual([10_000, 30_000]);
  });

  it('take milliseconds from 100 to 3600000', () => {
    const config = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '100', HTTP_REQUEST_TIMEOUT_MS: '3600000' });
    expect([config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs]).toEqual([100, 3_600_000]);
  });

  it.each(['0', '99', '3600001', '1e4', '10s', '-5', '5000.5', '99999999'])('refuse %s', (value) => {
    for (const name of ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS']) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(
        new RegExp(`^Invalid ${name}: must be an integer from 100 to 3600000`),
      );
    }
  });

  it('refuse a head timeout longer than the request timeout', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '15000' })).toThrow(
      'Invalid HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (15000 ms)',
    );
  });

  it('take a request timeout under 10 s alone: the unset head timeout follows it down', () => {
    for (const requestMs of [100, 5000, 9999]) {
      const config = loadConfig({ HTTP_REQUEST_TIMEOUT_MS: String(requestMs) });
      expect([config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs]).toEqual([requestMs, requestMs]);
    }
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '20000' }).httpHeadersTimeoutMs).toBe(10_000);
  });
});
