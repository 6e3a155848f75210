import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import type { MeterSpec } from '../../http/metering.js';
import { refundServerErrors, walletOf } from '../../http/metering.js';
import { inWalletShare } from '../../outbound/pools.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { DnsLookupBody, DnsLookupResponse } from './dns.schemas.js';
import type { DnsLookupInput } from './lookup-plan.js';

/** docs/contract.md#metering: 5 credits, client errors included; 5xx answers cost 0 (refunded by the metering, not here). */
export const dnsMeter: MeterSpec = {
  cost: 5,
  category: 'service',
  settle: refundServerErrors,
  durableBeforeHandler: true,
  readOnly: true,
};

/** Ten names and ten servers fit many times over. */
const DNS_BODY_LIMIT = 16 * 1024;

export const dnsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/dns-lookup',
    {
      config: { meter: dnsMeter },
      bodyLimit: DNS_BODY_LIMIT,
      schema: {
        operationId: 'dnsLookup',
        'x-cost': `${dnsMeter.cost as number}, also for a client error; 0 for a 5xx answer`,
        summary:
          'Look up DNS records of up to 10 domains or IPs, with optional propagation check, reverse lookup, e-mail security enrichment and TLS certificate inspection',
        tags: ['dns'],
        security: tokenAuth,
        body: DnsLookupBody,
        response: responses(DnsLookupResponse, 400, 401, 402, 413, 503),
        example: {
          body: {
            domains: ['example.com'],
            recordTypes: ['A', 'MX'],
            enableEnrichment: false,
            enableSslInspection: false,
            performReverseLookup: false,
          },
          response: {
            summary: {
              totalDomains: 1,
              successfulLookups: 1,
              failedLookups: 0,
              recordTypes: ['A', 'MX'],
              propagationCheckEnabled: false,
            },
            results: [
              {
                domain: 'example.com',
                lookupResult: {
                  domain: 'example.com',
                  timestamp: '2026-06-01T12:00:00.000Z',
                  records: {
                    A: [{ type: 'A', address: '93.184.215.14', ttl: 3600 }],
                    MX: [{ type: 'MX', exchange: 'mail.example.com', priority: 10, ttl: 3600 }],
                  },
                },
              },
            ],
          },
        },
      },
    },
    // Validation (Ajv, useDefaults) has filled every field the schema gives a default; the static type cannot say so.
    // The call waits for its wallet's share of the calls at work; its queries then draw on the wallet's share of the query pool.
    async (request) => {
      const wallet = walletOf(request).id;
      return inWalletShare(deps.pools.dnsCalls, wallet, () => deps.dns.lookup(request.body as DnsLookupInput, wallet));
    },
  );
};
