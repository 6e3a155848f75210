import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import { planLookup } from '../../../src/features/dns/lookup-plan.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return `${error.statusCode} ${error.body}`;
    throw error;
  }
  throw new Error('not refused');
}

describe('planning a DNS lookup', () => {
  it('fills the defaults of DECISIONS "DNS"', () => {
    const plan = planLookup({ domains: ['example.com'] });
    expect(plan.recordTypes).toEqual(['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME']);
    expect(plan).toMatchObject({ checkPropagation: false, performReverseLookup: true, enableEnrichment: true, enableSslInspection: true, includeMetadata: false });
    expect(plan.query).toEqual({ timeoutMs: 5000, maxRetries: 3, retryDelayMs: 1000 });
    expect(plan.propagationServers).toBeUndefined();
  });

  it('collapses duplicate domains (case, trailing dot, IDN spelling, IP spelling) and duplicate types', () => {
    const plan = planLookup({ domains: ['example.com', 'EXAMPLE.com.', 'bücher.de', 'xn--bcher-kva.de', '2001:db8::1', '2001:DB8:0:0::1'], recordTypes: ['A', 'MX', 'A'] });
    expect(plan.targets.map((target) => target.input)).toEqual(['example.com', 'bücher.de', '2001:db8::1']);
    expect(plan.recordTypes).toEqual(['A', 'MX']);
  });

  it('refuses more than 10 domains and an empty list', () => {
    expect(refusal(() => planLookup({ domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.com`) }))).toBe('400 Invalid domains: must list 1 to 10 domain names or IP addresses');
    expect(refusal(() => planLookup({ domains: [] }))).toBe('400 Invalid domains: must list 1 to 10 domain names or IP addresses');
  });

  it('names the invalid entry', () => {
    expect(refusal(() => planLookup({ domains: ['example.com', 'bad..name'] }))).toBe('400 Invalid domains[1]: "bad..name" is not a valid domain name or IP address');
  });

  it('checks the numeric ranges of SPEC "Limits"', () => {
    expect(refusal(() => planLookup({ domains: ['a.com'], timeout: 999 }))).toBe('400 Invalid timeout: must be an integer from 1000 to 60000');
    expect(refusal(() => planLookup({ domains: ['a.com'], maxRetries: 11 }))).toBe('400 Invalid maxRetries: must be an integer from 0 to 10');
    expect(refusal(() => planLookup({ domains: ['a.com'], retryDelay: -1 }))).toBe('400 Invalid retryDelay: must be an integer from 0 to 100000');
    expect(planLookup({ domains: ['a.com'], timeout: 60000, maxRetries: 0, retryDelay: 0 }).query).toEqual({ timeoutMs: 60000, maxRetries: 0, retryDelayMs: 0 });
  });

  it('treats an empty propagationServers list as the default list', () => {
    expect(planLookup({ domains: ['a.com'], checkPropagation: true, propagationServers: [] }).propagationServers).toBeUndefined();
    expect(planLookup({ domains: ['a.com'], propagationServers: [' 9.9.9.9 '] }).propagationServers).toEqual(['9.9.9.9']);
  });
});
