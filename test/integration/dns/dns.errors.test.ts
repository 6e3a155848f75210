import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, FAST, lookup, PLAIN, useDnsApp } from './route-fixtures.js';

const TYPES = 'A, AAAA, MX, CNAME, TXT, NS, PTR, SOA, CAA, SRV';
const DOMAINS_RULE = 'Invalid domains: must list 1 to 10 domain names or IP addresses';

/** Bodies refused with 400, and the exact plain-text answer. */
const BAD_INPUT: ReadonlyArray<readonly [string, unknown, string]> = [
  ['malformed JSON', '{"domains":', 'Invalid JSON body'],
  ['a JSON array body', '[]', 'Invalid body: must be a JSON object'],
  ['no domains', { recordTypes: ['A'] }, 'Missing required field: domains'],
  ['domains as a string', { domains: 'example.test' }, DOMAINS_RULE],
  ['an empty domain list', { domains: [] }, DOMAINS_RULE],
  ['11 domains', { domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.test`) }, DOMAINS_RULE],
  ['11 copies of one domain', { domains: Array.from({ length: 11 }, () => 'example.test') }, DOMAINS_RULE],
  [
    'a number among the domains',
    { domains: ['example.test', 42] },
    'Invalid domains[1]: must be a domain name or IP address of 1 to 253 characters (254 with a final dot)',
  ],
  [
    'an empty domain',
    { domains: [''] },
    'Invalid domains[0]: must be a domain name or IP address of 1 to 253 characters (254 with a final dot)',
  ],
  [
    'an invalid name',
    { domains: ['example.test', 'bad..name'] },
    'Invalid domains[1]: "bad..name" is not a valid domain name or IP address',
  ],
  [
    'a URL instead of a name',
    { domains: ['https://example.test/'] },
    'Invalid domains[0]: "https://example.test/" is not a valid domain name or IP address',
  ],
  [
    'a single-label name',
    { domains: ['localhost'] },
    'Invalid domains[0]: "localhost" is not a valid domain name or IP address',
  ],
  [
    'a mangled IP address',
    { domains: ['192.168.1'] },
    'Invalid domains[0]: "192.168.1" is not a valid domain name or IP address',
  ],
  [
    'an unknown record type',
    { domains: ['example.test'], recordTypes: ['A', 'SPF'] },
    `Invalid recordTypes[1]: must be one of ${TYPES}`,
  ],
  [
    'record types as a string',
    { domains: ['example.test'], recordTypes: 'A' },
    'Invalid recordTypes: must list 1 or more record types',
  ],
  [
    'an empty record type list',
    { domains: ['example.test'], recordTypes: [] },
    'Invalid recordTypes: must list 1 or more record types',
  ],
  [
    'a string boolean',
    { domains: ['example.test'], checkPropagation: 'yes' },
    'Invalid checkPropagation: must be boolean',
  ],
  [
    'timeout below the range',
    { domains: ['example.test'], timeout: 999 },
    'Invalid timeout: must be an integer from 1000 to 60000',
  ],
  [
    'timeout above the range',
    { domains: ['example.test'], timeout: 60001 },
    'Invalid timeout: must be an integer from 1000 to 60000',
  ],
  [
    'a fractional timeout',
    { domains: ['example.test'], timeout: 1500.5 },
    'Invalid timeout: must be an integer from 1000 to 60000',
  ],
  [
    'timeout as a string',
    { domains: ['example.test'], timeout: '5000' },
    'Invalid timeout: must be an integer from 1000 to 60000',
  ],
  [
    'negative maxRetries',
    { domains: ['example.test'], maxRetries: -1 },
    'Invalid maxRetries: must be an integer from 0 to 10',
  ],
  [
    'maxRetries above the range',
    { domains: ['example.test'], maxRetries: 11 },
    'Invalid maxRetries: must be an integer from 0 to 10',
  ],
  [
    'retryDelay above the range',
    { domains: ['example.test'], retryDelay: 100001 },
    'Invalid retryDelay: must be an integer from 0 to 100000',
  ],
  ['an unknown field', { domains: ['example.test'], colour: 'red' }, 'Unknown field: colour'],
  [
    '11 propagation servers',
    { domains: ['example.test'], propagationServers: Array.from({ length: 11 }, (_, i) => `9.9.9.${i}`) },
    'Invalid propagationServers: must be a list of at most 10 servers',
  ],
  [
    'propagation servers as a string',
    { domains: ['example.test'], propagationServers: '8.8.8.8' },
    'Invalid propagationServers: must be a list of at most 10 servers',
  ],
  [
    'a malformed propagation server',
    { domains: ['example.test'], propagationServers: ['9.9.9.9:99999'] },
    'Invalid propagationServers[0]: must be an IP address or host name, optionally with :port',
  ],
  [
    'a private propagation server',
    { domains: ['example.test'], checkPropagation: true, propagationServers: ['10.0.0.53'] },
    'Invalid propagationServers[0]: 10.0.0.53 is not a public address',
  ],
];

/** A name of 253 characters, the most a DNS name has: four labels of 63, 63, 63 and 61. */
const LONGEST_NAME = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.');

describeEachStore('POST /dns-lookup: bad input', (kind) => {
  const { app, dns } = useDnsApp(kind);

  for (const [what, body, answer] of BAD_INPUT) {
    it(`answers 400 to ${what}, charging 5 and no more`, async () => {
      const token = await app().createToken(100);
      const asked = dns().queries.length;
      const res = await lookup(app(), token, body);
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, answer, PLAIN]);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['5', '95']);
      expect(await balanceOf(app(), token)).toBe(95);
      // Refused before any lookup.
      expect(dns().queries.length).toBe(asked);
    });
  }

  it('takes a name of 253 characters written with the final dot, and refuses one character more', async () => {
    expect(LONGEST_NAME).toHaveLength(253);
    const token = await app().createToken(100);
    const asked = dns().queries.length;
    const res = await lookup(app(), token, { domains: [`${LONGEST_NAME}.`], recordTypes: ['A'], ...FAST });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      dns()
        .queries.slice(asked)
        .map((query) => query.name),
    ).toContain(LONGEST_NAME);
    const longer = await lookup(app(), token, { domains: [`e${LONGEST_NAME}`], ...FAST });
    expect([longer.statusCode, longer.body]).toEqual([
      400,
      `Invalid domains[0]: "e${LONGEST_NAME}" is not a valid domain name or IP address`,
    ]);
    const longest = await lookup(app(), token, { domains: [`e${LONGEST_NAME}.`], ...FAST });
    expect([longest.statusCode, longest.body]).toEqual([
      400,
      'Invalid domains[0]: must be a domain name or IP address of 1 to 253 characters (254 with a final dot)',
    ]);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const token = await app().createToken(100);
    const res = await lookup(app(), token, 'domains=example.test', 'application/x-www-form-urlencoded');
    expect([res.statusCode, res.headers['x-cost']]).toEqual([400, '5']);
  });

  it('records the 400 in the log with its message and cost', async () => {
    const token = await app().createToken(100);
    await lookup(app(), token, { domains: [] });
    const logs = (await app().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } })).json()
      .logs;
    expect(logs[0]).toMatchObject({ endpoint: 'service', status_code: 400, error: DOMAINS_RULE, cost: 5, balance: 95 });
  });

  it('answers 402 without charging when the wallet has less than 5 credits', async () => {
    const token = await app().createToken(4);
    const res = await lookup(app(), token, { domains: ['example.test'], ...FAST });
    expect([res.statusCode, res.body, res.headers['x-cost'], res.headers['x-balance']]).toEqual([
      402,
      'Insufficient credits',
      '0',
      '4',
    ]);
    expect(await balanceOf(app(), token)).toBe(4);
  });

  it('answers 401 without a token, before any lookup', async () => {
    const asked = dns().queries.length;
    const res = await app().inject({
      method: 'POST',
      url: '/dns-lookup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ domains: ['example.test'] }),
    });
    expect([res.statusCode, res.body]).toEqual([401, 'Unauthorized']);
    expect(dns().queries.length).toBe(asked);
  });

  it('answers 405 to other methods', async () => {
    const res = await app().inject({ method: 'GET', url: '/dns-lookup' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('POST');
  });
});
