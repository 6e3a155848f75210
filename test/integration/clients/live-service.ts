import type { AddressInfo } from 'node:net';
import { beforeAll } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import type { StoreKind } from '../../helpers/stores.js';

export const ADMIN_TOKEN = 'admin-token-for-the-client-tests';

export interface LiveService {
  app(): TestApp;
  /** `http://127.0.0.1:<port>` of the listening instance. */
  url(): string;
  outbound: OutboundFixture;
  dns(): TestDnsServer;
}

/**
 * An instance listening on loopback, as the SDK and the CLI meet it: the operator API on, outbound calls allowed to
 * the loopback HTTPS receiver, DNS answered by a loopback server (example.test A 192.0.2.10, a documentation range
 * the lookup is allowed to show).
 */
export function useLiveService(kind: StoreKind): LiveService {
  const outbound = useOutboundFixture();
  const env: Record<string, string> = { ...outbound.env, ADMIN_TOKEN, OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,192.0.2.0/24' };
  let dns: TestDnsServer | undefined;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: [rr('example.test', 'A', '192.0.2.10', 300)] });
    env.DNS_SERVERS = dns.address;
  });
  const app = useTestApp(kind, { env });
  let url: string | undefined;
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app().app.server.address() as AddressInfo).port}`;
    return async () => dns?.close();
  });
  return {
    app,
    outbound,
    url: () => {
      if (url === undefined) throw new Error('service not listening');
      return url;
    },
    dns: () => {
      if (dns === undefined) throw new Error('DNS server not started');
      return dns;
    },
  };
}
