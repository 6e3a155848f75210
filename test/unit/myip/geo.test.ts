import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { callerAddress } from '../../../src/features/myip/caller-address.js';
import { continentOf } from '../../../src/features/myip/continents.js';
import { createGeoLookup, defaultGeoipPath, EMPTY_GEO, geoFromRecord } from '../../../src/features/myip/geo.js';
import { writeTestGeoDb } from '../../integration/myip/geo-fixture.js';

const logger = pino({ level: 'silent' });

describe('caller address', () => {
  it.each([
    ['203.0.113.7', { ip: '203.0.113.7', ipv6: '', isCurrentIpv6: false }],
    ['::ffff:203.0.113.7', { ip: '203.0.113.7', ipv6: '', isCurrentIpv6: false }],
    ['::FFFF:cb00:7107', { ip: '203.0.113.7', ipv6: '', isCurrentIpv6: false }],
    ['2001:db8::1', { ip: '', ipv6: '2001:db8::1', isCurrentIpv6: true }],
    ['[2001:db8::1]:443', { ip: '', ipv6: '2001:db8::1', isCurrentIpv6: true }],
    ['203.0.113.7:5678', { ip: '203.0.113.7', ipv6: '', isCurrentIpv6: false }],
    ['fe80::1%eth0', { ip: '', ipv6: 'fe80::1%eth0', isCurrentIpv6: true }],
    ['unknown', { ip: '', ipv6: '', isCurrentIpv6: false }],
    [undefined, { ip: '', ipv6: '', isCurrentIpv6: false }],
  ])('reads %s', (raw, expected) => {
    expect(callerAddress(raw)).toEqual(expected);
  });
});

describe('geo records', () => {
  it('reads the MaxMind GeoIP2 layout, English names first', () => {
    expect(
      geoFromRecord({
        city: { names: { de: 'München', en: 'Munich' } },
        country: { iso_code: 'de' },
        location: { latitude: 48.1, longitude: 11.6, time_zone: 'Europe/Berlin' },
        subdivisions: [{ iso_code: 'BY', names: { de: 'Bayern' } }],
        postal: { code: '80331' },
      }),
    ).toEqual({ city: 'Munich', country: 'DE', continent: 'EU', latitude: '48.1', longitude: '11.6', region: 'Bayern', regionCode: 'BY', timezone: 'Europe/Berlin', postalCode: '80331' });
  });

  it('uses the registered country when the located one is missing', () => {
    expect(geoFromRecord({ registered_country: { iso_code: 'BR' } })).toMatchObject({ country: 'BR', continent: 'SA' });
  });

  it('reads the flat ip-location-db layout, country-only included', () => {
    expect(geoFromRecord({ country_code: 'AU' })).toEqual({ ...EMPTY_GEO, country: 'AU', continent: 'OC' });
  });

  it('answers empty fields for nothing', () => {
    expect(geoFromRecord(null)).toEqual(EMPTY_GEO);
    expect(geoFromRecord('x')).toEqual(EMPTY_GEO);
  });

  it('knows the continent of every inhabited region it is asked about', () => {
    expect(['US', 'MX', 'BR', 'GB', 'RU', 'TR', 'CN', 'ZA', 'NZ', 'AQ', 'xx'].map(continentOf)).toEqual(['NA', 'NA', 'SA', 'EU', 'EU', 'AS', 'AS', 'AF', 'OC', 'AN', '']);
  });
});

describe('geo lookup', () => {
  it('reads a MaxMind-format file, IPv4 and IPv6', () => {
    const geo = createGeoLookup({ configuredPath: writeTestGeoDb(), logger });
    expect(geo.lookup('203.0.113.1')).toMatchObject({ city: 'Testville', country: 'FR' });
    expect(geo.lookup('2001:db8:1:2::3')).toMatchObject({ city: 'Tokyo', country: 'JP', continent: 'AS' });
    expect(geo.lookup('192.0.2.1')).toEqual(EMPTY_GEO);
    expect(geo.lookup('not an ip')).toEqual(EMPTY_GEO);
  });

  it('refuses to start with a GEOIP_DB that is not a database', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'coinop-geo-bad-')), 'bad.mmdb');
    writeFileSync(path, 'not a database');
    expect(() => createGeoLookup({ configuredPath: path, logger })).toThrow(/^Invalid GEOIP_DB/);
    expect(() => createGeoLookup({ configuredPath: '/nonexistent/geo.mmdb', logger })).toThrow(/^Invalid GEOIP_DB/);
  });

  it('bundles a default country database', () => {
    expect(defaultGeoipPath()).toMatch(/dbip-country\.mmdb$/);
    const geo = createGeoLookup({ logger });
    expect(geo.lookup('1.1.1.1').country).toMatch(/^[A-Z]{2}$/);
    expect(geo.lookup('2606:4700:4700::1111').country).toMatch(/^[A-Z]{2}$/);
    expect(geo.lookup('127.0.0.1')).toEqual(EMPTY_GEO);
  });
});
