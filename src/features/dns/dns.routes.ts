import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import type { MeterSpec } from '../../http/metering.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { DnsLookupBody, DnsLookupResponse } from './dns.schemas.js';
import type { DnsLookupInput } from './lookup-plan.js';

/** SPEC: 5 credits, client errors included; 5xx answers cost 0 (refunded by the metering, not here). */
export const dnsMeter: MeterSpec = { cost: 5, category: 'service', settle: (status, charged) => (status >= 500 ? 0 : charged), durableBeforeHandler: true };

/** Ten names and ten servers fit many times over. */
const DNS_BODY_LIMIT = 16 * 1024;

export const dnsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/dns-lookup',
    {
      config: { meter: dnsMeter },
      bodyLimit: DNS_BODY_LIMIT,
      schema: {
        summary:
          'Look up DNS records of up to 10 domains or IPs, with optional propagation check, reverse lookup, e-mail security enrichment and TLS certificate inspection',
        tags: ['dns'],
        security: tokenAuth,
        body: DnsLookupBody,
        response: responses(DnsLookupResponse, 400, 401, 402, 413),
      },
    },
    // Validation (Ajv, useDefaults) has filled every field the schema gives a default; the static type cannot say so.
    async (request) => deps.dns.lookup(request.body as DnsLookupInput),
  );
};
