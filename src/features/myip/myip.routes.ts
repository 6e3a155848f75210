import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { responses, tokenAuth } from '../../http/schemas.js';
import { callerAddress } from './caller-address.js';
import { EMPTY_GEO } from './geo.js';

const geo = (description: string) => Type.String({ description: `${description}; empty when unknown` });

export const MyIpInfo = Type.Object({
  ip: Type.String({ description: 'IPv4 address; empty for native IPv6 callers (IPv4-mapped IPv6 counts as IPv4)' }),
  ipv6: Type.String({ description: 'IPv6 address when the caller is IPv6, else empty' }),
  isCurrentIpv6: Type.Boolean(),
  userAgent: Type.String(),
  acceptLanguage: Type.String(),
  city: geo('City name'),
  country: geo('ISO 3166-1 alpha-2 country code'),
  continent: geo('Continent code (AF, AN, AS, EU, NA, OC, SA)'),
  latitude: geo('Decimal degrees, as a string'),
  longitude: geo('Decimal degrees, as a string'),
  region: geo('First-level subdivision name'),
  regionCode: geo('First-level subdivision code'),
  timezone: geo('IANA time zone'),
  postalCode: geo('Postal code'),
});
export type MyIpInfo = Static<typeof MyIpInfo>;

export const myIpRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/myip',
    {
      config: { meter: { cost: 1, category: 'myip', readOnly: true } },
      schema: {
        operationId: 'myIp',
        summary: 'Caller IP and geo metadata',
        description:
          "The address is the connection's, or the X-Forwarded-For entry chosen by TRUST_PROXY when the connection comes from a trusted proxy. " +
          'Geo fields come from the configured MaxMind-format database (GEOIP_DB; by default DB-IP IP-to-Country Lite, https://db-ip.com, CC BY 4.0).',
        tags: ['myip'],
        security: tokenAuth,
        response: responses(MyIpInfo, 401, 402),
        example: {
          response: {
            ip: '203.0.113.7',
            ipv6: '',
            isCurrentIpv6: false,
            userAgent: 'curl/8.5.0',
            acceptLanguage: '',
            city: '',
            country: 'NL',
            continent: 'EU',
            latitude: '',
            longitude: '',
            region: '',
            regionCode: '',
            timezone: '',
            postalCode: '',
          },
        },
      },
    },
    async (request): Promise<MyIpInfo> => {
      const address = callerAddress(request.client.address);
      const lookupAddress = address.ip || address.ipv6;
      return {
        ...address,
        userAgent: headerText(request.headers['user-agent']),
        acceptLanguage: headerText(request.headers['accept-language']),
        ...(lookupAddress === '' ? EMPTY_GEO : await deps.geo.lookup(lookupAddress)),
      };
    },
  );
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the client wrote it. Node reads header bytes as Latin-1, so a client that sent UTF-8 (a user agent
 * or a language tag with `ü` in it) would see it garbled back; bytes that are valid UTF-8 are read as UTF-8, any others
 * stay Latin-1. Bounded by Node's header size limit.
 */
function headerText(value: string | undefined): string {
  if (value === undefined) return '';
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
