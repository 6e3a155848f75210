import { describe, expect, it } from 'vitest';
import { parseServerSpec } from '../../../src/lib/server-spec.js';

describe('server addresses as people write them', () => {
  it('reads IPs and names with an optional port', () => {
    expect(parseServerSpec('8.8.8.8')).toEqual({ host: '8.8.8.8', port: 53, isIp: true });
    expect(parseServerSpec('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353, isIp: true });
    expect(parseServerSpec('2001:4860:4860::8888')).toEqual({ host: '2001:4860:4860::8888', port: 53, isIp: true });
    expect(parseServerSpec('[::1]:5300')).toEqual({ host: '::1', port: 5300, isIp: true });
    expect(parseServerSpec('Dns.Example.net:853')).toEqual({ host: 'dns.example.net', port: 853, isIp: false });
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      '1.2.3.4:0',
      '1.2.3.4:65536',
      '1.2.3.4:x',
      '[::1',
      '[1.2.3.4]:53',
      'a b',
      'dns..example',
      '1.2.3',
      'http://dns.example',
      '::1:53:',
    ]) {
      expect(parseServerSpec(bad), bad).toBeNull();
    }
  });
});
