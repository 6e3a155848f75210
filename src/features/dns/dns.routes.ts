import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import type { MeterSpec } from '../../http/metering.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { createAddressPolicy } from '../../outbound/address-policy.js';
import { createDnsLookup } from './dns-lookup.js';
import type { DnsLookup } from './dns-lookup.js';
import { DnsLookupBody, DnsLookupResponse } from './dns.schemas.js';
import { resolverAddresses } from './server-address.js';
import { createDnsClient } from './wire-client.js';

/** SPEC: 5 credits, client errors included; 5xx answers cost 0 (refunded by the metering, not here). */
export const dnsMeter: MeterSpec = { cost: 5, category: 'service', settle: (status, charged) => (status >= 500 ? 0 : charged), durableBeforeHandler: true };

/** Ten names and ten servers fit many times over. */
const DNS_BODY_LIMIT = 16 * 1024;

/** The lookup as configured: DNS_SERVERS (or the system's), OUTBOUND_ALLOW_CIDRS, OUTBOUND_CA_FILE. */
export function dnsLookupFromConfig(deps: Deps): DnsLookup {
  const { config } = deps;
  return createDnsLookup({
    client: createDnsClient(resolverAddresses(config.dnsServers)),
    policy: createAddressPolicy(config.outboundAllowCidrs),
    clock: deps.clock,
    tlsContext: config.outboundCaFile === undefined ? undefined : createSecureContext({ ca: [...rootCertificates, readFileSync(config.outboundCaFile, 'utf8')] }),
  });
}

export const dnsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; lookup?: DnsLookup }> = async (app, { deps, lookup }) => {
  const dns = lookup ?? dnsLookupFromConfig(deps);

  app.post(
    '/dns-lookup',
    {
      config: { meter: dnsMeter },
      bodyLimit: DNS_BODY_LIMIT,
      schema: {
        summary: 'Look up DNS records of up to 10 domains or IPs, with optional propagation check, reverse lookup, e-mail security enrichment and TLS certificate inspection',
        tags: ['dns'],
        security: tokenAuth,
        body: DnsLookupBody,
        response: responses(DnsLookupResponse, 400, 401, 402, 413),
      },
    },
    async (request) => dns.lookup(request.body),
  );
};
