import type { AddressInfo } from 'node:net';
import { beforeAll } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import type { StoreKind } from '../../helpers/stores.js';
import type { Clock } from '../../../src/lib/time.js';

export const ADMIN_TOKEN = 'admin-token-for-the-client-tests';

export interface LiveService {
  app(): TestApp;
  /** `http://127.0.0.1:<port>` of the listening instance. */
  url(): string;
  outbound: OutboundFixture;
  dns(): TestDnsServer;
}

const DAY_MS = 86_400_000;

/**
 * Real time moved forward to the next noon UTC (less than a day ahead): the instance's day cannot end during a run, so
 * tests may compare what a call logged with "today" (spend, stats) wherever the suite runs, midnight UTC included.
 */
export function noonClock(): Clock {
  const now = Date.now();
  const noon = now - (now % DAY_MS) + DAY_MS / 2;
  const shift = noon >= now ? noon - now : noon + DAY_MS - now;
  return { now: () => Date.now() + shift };
}

/**
 * An instance listening on loopback, as the SDK and the CLI meet it: the operator API on, outbound calls allowed to
 * the loopback HTTPS receiver, DNS answered by a loopback server (example.test A 192.0.2.10, a documentation range
 * the lookup is allowed to show), its clock noonClock's.
 */
export function useLiveService(kind: StoreKind): LiveService {
  const outbound = useOutboundFixture();
  const env: Record<string, string> = {
    ...outbound.env,
    ADMIN_TOKEN,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,192.0.2.0/24',
  };
  let dns: TestDnsServer | undefined;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: [rr('example.test', 'A', '192.0.2.10', 300)] });
    env.DNS_SERVERS = dns.address;
  });
  const app = useTestApp(kind, { env, clock: noonClock() });
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
