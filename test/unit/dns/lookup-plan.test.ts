import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import { planLookup } from '../../../src/features/dns/lookup-plan.js';
import type { DnsLookupBody } from '../../../src/features/dns/dns.schemas.js';
import { validatedBody } from '../../helpers/validated-dns-body.js';

// Lengths, ranges and defaults are the schema's (refusals: test/integration/dns/dns.errors.test.ts); the plan gets a validated body.
const plan = (body: DnsLookupBody) => planLookup(validatedBody(body));

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
  it('plans with the defaults of the contract (the schema fills the fields, the plan the record types)', () => {
    const planned = plan({ domains: ['example.com'] });
    expect(planned.recordTypes).toEqual(['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME']);
    expect(planned).toMatchObject({
      checkPropagation: false,
      performReverseLookup: true,
      enableEnrichment: true,
      enableSslInspection: true,
      includeMetadata: false,
    });
    expect(planned.query).toEqual({ timeoutMs: 5000, maxRetries: 3, retryDelayMs: 1000 });
    expect(planned.propagationServers).toBeUndefined();
  });

  it('takes the given options', () => {
    const planned = plan({
      domains: ['a.com'],
      timeout: 60000,
      maxRetries: 0,
      retryDelay: 0,
      checkPropagation: true,
      performReverseLookup: false,
      enableEnrichment: false,
      enableSslInspection: false,
      includeMetadata: true,
    });
    expect(planned.query).toEqual({ timeoutMs: 60000, maxRetries: 0, retryDelayMs: 0 });
    expect(planned).toMatchObject({
      checkPropagation: true,
      performReverseLookup: false,
      enableEnrichment: false,
      enableSslInspection: false,
      includeMetadata: true,
    });
  });

  it('collapses duplicate domains (case, trailing dot, IDN spelling, IP spelling) and duplicate types', () => {
    const planned = plan({
      domains: ['example.com', 'EXAMPLE.com.', 'bücher.de', 'xn--bcher-kva.de', '2001:db8::1', '2001:DB8:0:0::1'],
      recordTypes: ['A', 'MX', 'A'],
    });
    expect(planned.targets.map((target) => target.input)).toEqual(['example.com', 'bücher.de', '2001:db8::1']);
    expect(planned.recordTypes).toEqual(['A', 'MX']);
  });

  it('names the invalid entry', () => {
    expect(refusal(() => plan({ domains: ['example.com', 'bad..name'] }))).toBe(
      '400 Invalid domains[1]: "bad..name" is not a valid domain name or IP address',
    );
  });

  it('treats an empty propagationServers list as the default list', () => {
    expect(
      plan({ domains: ['a.com'], checkPropagation: true, propagationServers: [] }).propagationServers,
    ).toBeUndefined();
    expect(plan({ domains: ['a.com'], propagationServers: [' 9.9.9.9 '] }).propagationServers).toEqual(['9.9.9.9']);
  });
});
