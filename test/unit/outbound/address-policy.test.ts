import { describe, expect, it } from 'vitest';
import { createAddressPolicy, ipFromUrlHost } from '../../../src/outbound/address-policy.js';
import { createOutbound, OutboundError, type OutboundOptions } from '../../../src/outbound/outbound-client.js';

// Network rule of this suite: nothing here may connect anywhere. Every URL case
// first asserts the policy refuses the host, so a policy bug fails the test
// instead of opening a connection; names resolve only through fake lookups.

type Lookup = NonNullable<OutboundOptions['lookup']>;

const noDns: Lookup = async (hostname) => {
  throw Object.assign(new Error(`no DNS in unit tests: ${hostname}`), { code: 'ENOTFOUND' });
};

function fakeDns(table: Record<string, string[]>): Lookup {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined) return noDns(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

function outboundWith(lookup: Lookup, allowCidrs: readonly string[] = []) {
  return createOutbound({ allowCidrs, lookup, userAgent: 'coinop-test', timeoutMs: 1_000 });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    return err instanceof OutboundError ? err.code : `unexpected ${String(err)}`;
  }
}

// [URL host as typed by an attacker, what it is]
const BYPASS_HOSTS: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.0.0.2', 'loopback /8'],
  ['127.255.255.254', 'loopback /8 end'],
  ['2130706433', 'decimal loopback'],
  ['0177.0.0.1', 'octal loopback'],
  ['0177.0000.0000.0001', 'padded octal loopback'],
  ['017700000001', 'single octal number'],
  ['0x7f.1', 'hex short loopback'],
  ['0x7f000001', 'single hex number'],
  ['0x7f.0x0.0x0.0x1', 'hex dotted loopback'],
  ['127.1', 'short loopback'],
  ['127.0.1', 'three-part loopback'],
  ['127.000.000.001', 'zero-padded loopback'],
  ['127.0.0.1.', 'trailing dot'],
  ['%31%32%37.0.0.1', 'percent-encoded digits'],
  ['１２７.０.０.１', 'full-width digits'],
  ['127。0。0。1', 'ideographic full stops'],
  ['0', 'zero as 0.0.0.0'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network 0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'private 10/8 end'],
  ['167772161', 'decimal 10.0.0.1'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.254', 'private 172.16/12 end'],
  ['192.168.1.1', 'private 192.168/16'],
  ['0xc0a80101', 'hex 192.168.1.1'],
  ['169.254.169.254', 'cloud metadata'],
  ['0xA9FEA9FE', 'hex cloud metadata'],
  ['2852039166', 'decimal cloud metadata'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['100.127.255.254', 'CGNAT end'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'SSDP multicast'],
  ['255.255.255.255', 'broadcast'],
  ['4294967295', 'decimal broadcast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.254', 'benchmarking end'],
  ['192.0.0.170', 'IETF protocol assignments 192.0.0/24'],
  ['[::1]', 'IPv6 loopback'],
  ['[0:0:0:0:0:0:0:1]', 'IPv6 loopback, long form'],
  ['[::]', 'IPv6 unspecified'],
  ['[::ffff:127.0.0.1]', 'IPv4-mapped loopback'],
  ['[::ffff:7f00:1]', 'IPv4-mapped loopback, hex'],
  ['[0:0:0:0:0:ffff:127.0.0.1]', 'IPv4-mapped loopback, long form'],
  ['[::ffff:10.0.0.1]', 'IPv4-mapped private'],
  ['[::ffff:a9fe:a9fe]', 'IPv4-mapped metadata'],
  ['[::ffff:0:7f00:1]', 'IPv4-translated (RFC 6145)'],
  ['[::127.0.0.1]', 'IPv4-compatible loopback'],
  ['[::a00:1]', 'IPv4-compatible private'],
  ['[fe80::1]', 'link-local'],
  ['[febf::ffff]', 'link-local end'],
  ['[fc00::1]', 'unique-local fc00::/7'],
  ['[fd00::1]', 'unique-local fd00::/8'],
  ['[fd12:3456:789a::1]', 'unique-local, random'],
  ['[fec0::1]', 'site-local'],
  ['[ff02::1]', 'IPv6 multicast'],
  ['[100::1]', 'discard 100::/64'],
  ['[2001:db8::1]', 'documentation'],
  ['[2002:7f00:1::]', '6to4 embedding 127.0.0.1'],
  ['[2002:a00:1::1]', '6to4 embedding 10.0.0.1'],
  ['[2002:c0a8:101::1]', '6to4 embedding 192.168.1.1'],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'Teredo'],
  ['[64:ff9b::127.0.0.1]', 'NAT64 embedding 127.0.0.1'],
  ['[64:ff9b::a9fe:a9fe]', 'NAT64 embedding metadata'],
  ['[64:ff9b:1::a00:1]', 'local-use NAT64 64:ff9b:1::/48'],
  ['[4000::1]', 'outside 2000::/3'],
];

describe('address policy: SSRF bypass attempts (empty allow list)', () => {
  const policy = createAddressPolicy([]);

  it('covers at least 60 attempts', () => {
    expect(BYPASS_HOSTS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(BYPASS_HOSTS)('refuses host %s (%s) at the policy level', (host) => {
    const ip = ipFromUrlHost(host);
    expect(ip).not.toBeNull();
    expect(policy.isAllowed(ip as string)).toBe(false);
    // The raw spelling is judged the same way.
    expect(policy.isAllowed(host.replace(/^\[|\]$/g, ''))).toBe(false);
  });

  it.each(BYPASS_HOSTS)('refuses https://%s/ (%s) in checkUrl and request', async (host) => {
    const ip = ipFromUrlHost(host);
    expect(ip !== null && !policy.isAllowed(ip)).toBe(true);
    if (ip === null || policy.isAllowed(ip)) return; // never connect on a policy bug
    const outbound = outboundWith(noDns);
    const url = `https://${host}/hook`;
    expect(await codeOf(outbound.checkUrl(url))).toBe('refused_address');
    expect(await codeOf(outbound.request({ url, method: 'POST', body: '{}' }))).toBe('refused_address');
    const delivery = await outbound.deliverJson(url, JSON.stringify({ hello: 'world' }));
    expect(delivery).toMatchObject({ ok: false, cause: 'refused address' });
    await outbound.close();
  });

  it('gives the 400 message for a refused address', async () => {
    const outbound = outboundWith(noDns);
    await expect(outbound.checkUrl('https://[::ffff:127.0.0.1]/')).rejects.toThrow('Invalid url: refused address');
  });

  it.each(['::', '::1', '0.0.0.0', 'fe80::1%eth0', 'not an ip', '', '999.1.1.1', '1.2.3.4/8'])(
    'refuses unparseable or special %j',
    (text) => {
      expect(policy.isAllowed(text)).toBe(false);
    },
  );
});

describe('address policy: host names resolving to non-public addresses', () => {
  const dns = fakeDns({
    'metadata.evil.test': ['169.254.169.254'],
    'loopback.evil.test': ['127.0.0.1', '::1'],
    'private.evil.test': ['10.1.2.3', '192.168.0.10'],
    'mapped.evil.test': ['::ffff:127.0.0.1'],
    'ula.evil.test': ['fd00::5'],
    'nat64.evil.test': ['64:ff9b::a00:1'],
  });
  const names = [
    'metadata.evil.test',
    'loopback.evil.test',
    'private.evil.test',
    'mapped.evil.test',
    'ula.evil.test',
    'nat64.evil.test',
  ];

  it.each(names)('refuses %s in checkUrl and at connect time', async (name) => {
    const resolved = await dns(name);
    const policy = createAddressPolicy([]);
    expect(resolved.every((entry) => !policy.isAllowed(entry.address))).toBe(true);
    const outbound = outboundWith(dns);
    expect(await codeOf(outbound.checkUrl(`https://${name}/hook`))).toBe('refused_address');
    expect(await codeOf(outbound.request({ url: `https://${name}/hook` }))).toBe('refused_address');
    await outbound.close();
  });

  it('refuses localhost names without asking DNS', async () => {
    const outbound = outboundWith(noDns);
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost']) {
      expect(await codeOf(outbound.checkUrl(`https://${host}/`))).toBe('refused_address');
    }
  });

  it('accepts at save time a name with at least one public address', async () => {
    const outbound = outboundWith(fakeDns({ 'mixed.example': ['10.0.0.1', '93.184.216.34'] }));
    await expect(outbound.checkUrl('https://mixed.example/hook')).resolves.toBeUndefined();
  });

  it('accepts at save time a name that does not resolve (judged again at delivery)', async () => {
    const outbound = outboundWith(noDns);
    await expect(outbound.checkUrl('https://not-yet-registered.example/')).resolves.toBeUndefined();
  });

  it('refuses at connect time a name that answered public at save time (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding: Lookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '93.184.216.34' : '10.0.0.1', family: 4 }];
    };
    const outbound = outboundWith(rebinding);
    await expect(outbound.checkUrl('https://rebind.example/hook')).resolves.toBeUndefined();
    expect(calls).toBe(1); // the public answer is used up, the request sees only the private one
    expect(await codeOf(outbound.request({ url: 'https://rebind.example/hook' }))).toBe('refused_address');
    expect(calls).toBe(2);
    await outbound.close();
  });

  it('reports an unresolvable name as a DNS failure at delivery', async () => {
    const outbound = outboundWith(noDns);
    expect(await outbound.deliverJson('https://nowhere.example/', '{}')).toMatchObject({
      ok: false,
      cause: 'DNS lookup failed',
    });
  });
});

describe('address policy: allowed addresses', () => {
  const policy = createAddressPolicy([]);

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '151.101.1.69',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
  ])('allows public %s (policy only)', (ip) => {
    expect(policy.isAllowed(ip)).toBe(true);
  });

  it('exempts 127.0.0.0/8 and ::1 through the allow list', () => {
    const loopback = createAddressPolicy(['127.0.0.0/8', '::1/128']);
    for (const ip of ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1', '2130706433'])
      expect(loopback.isAllowed(ip)).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', '::2', 'fe80::1', '0.0.0.0'])
      expect(loopback.isAllowed(ip)).toBe(false);
  });

  it('accepts a bare address as a single-host range', () => {
    const single = createAddressPolicy(['10.0.0.5']);
    expect(single.isAllowed('10.0.0.5')).toBe(true);
    expect(single.isAllowed('10.0.0.6')).toBe(false);
  });

  it('rejects a malformed allow-list entry', () => {
    expect(() => createAddressPolicy(['10.0.0.0/33'])).toThrow(/invalid CIDR/);
    expect(() => createAddressPolicy(['nope'])).toThrow(/invalid CIDR/);
  });
});

describe('URL literals and URL rules', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[0:0::1]', '::1'],
    ['0127.0.0.1', '87.0.0.1'],
  ])('ipFromUrlHost(%j) is %j, as WHATWG URL parses it', (host, ip) => {
    expect(ipFromUrlHost(host)).toBe(ip);
  });

  it.each(['example.com', 'localhost', '', 'a/b', 'user@127.0.0.1', '08.0.0.1'])(
    'ipFromUrlHost(%j) is null',
    (host) => {
      expect(ipFromUrlHost(host)).toBeNull();
    },
  );

  it.each([
    ['not a url', 'invalid_url', 'Invalid url: must be a valid URL'],
    ['http://example.com/', 'insecure_url', 'Invalid url: must be an https URL'],
    ['ftp://example.com/', 'invalid_url', 'Invalid url: must be an https URL'],
    ['file:///etc/passwd', 'invalid_url', 'Invalid url: must be an https URL'],
    ['https://user:pass@example.com/', 'invalid_url', 'Invalid url: must not contain credentials'],
    ['https://user@example.com/', 'invalid_url', 'Invalid url: must not contain credentials'],
    ['https://[fe80::1%25eth0]/', 'invalid_url', 'Invalid url: must be a valid URL'],
  ])('checkUrl(%j) fails with %s', async (url, code, message) => {
    const outbound = outboundWith(noDns);
    const err = await outbound.checkUrl(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe(code);
    expect((err as OutboundError).message).toBe(message);
  });

  it('allows http only when asked, still judging the address', async () => {
    const outbound = outboundWith(noDns);
    await expect(outbound.checkUrl('http://8.8.8.8/', { allowHttp: true })).resolves.toBeUndefined();
    expect(await codeOf(outbound.checkUrl('http://127.0.0.1/', { allowHttp: true }))).toBe('refused_address');
  });
});
