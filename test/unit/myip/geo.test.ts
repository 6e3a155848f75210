import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    ['2001:db8::1', { ip: '', ipv6: '2001:db8::1', isCurrentIpv6: true }],
    ['fe80::1%eth0', { ip: '', ipv6: 'fe80::1%eth0', isCurrentIpv6: true }],
    ['', { ip: '', ipv6: '', isCurrentIpv6: false }],
  ])('reports the plain client address %s', (address, expected) => {
    expect(callerAddress(address)).toEqual(expected);
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
    ).toEqual({
      city: 'Munich',
      country: 'DE',
      continent: 'EU',
      latitude: '48.1',
      longitude: '11.6',
      region: 'Bayern',
      regionCode: 'BY',
      timezone: 'Europe/Berlin',
      postalCode: '80331',
    });
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
    expect(['US', 'MX', 'BR', 'GB', 'RU', 'TR', 'CN', 'ZA', 'NZ', 'AQ', 'xx'].map(continentOf)).toEqual([
      'NA',
      'NA',
      'SA',
      'EU',
      'EU',
      'AS',
      'AS',
      'AF',
      'OC',
      'AN',
      '',
    ]);
  });
});

describe('geo lookup', () => {
  it('reads a MaxMind-format file, IPv4 and IPv6', async () => {
    const geo = createGeoLookup({ configuredPath: writeTestGeoDb(), logger });
    expect(await geo.lookup('203.0.113.1')).toMatchObject({ city: 'Testville', country: 'FR' });
    expect(await geo.lookup('2001:db8:1:2::3')).toMatchObject({ city: 'Tokyo', country: 'JP', continent: 'AS' });
    expect(await geo.lookup('192.0.2.1')).toEqual(EMPTY_GEO);
    expect(await geo.lookup('not an ip')).toEqual(EMPTY_GEO);
  });

  it('refuses to start with a GEOIP_DB that is not a database, or is missing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'coinop-geo-bad-')), 'bad.mmdb');
    writeFileSync(path, 'not a database');
    await expect(createGeoLookup({ configuredPath: path, logger }).ready()).rejects.toThrow(/^Invalid GEOIP_DB/);
    await expect(createGeoLookup({ configuredPath: '/nonexistent/geo.mmdb', logger }).ready()).rejects.toThrow(
      /^Invalid GEOIP_DB/,
    );
    await expect(createGeoLookup({ configuredPath: writeTestGeoDb(), logger }).ready()).resolves.toBeUndefined();
  });

  it('bundles a default country database', async () => {
    expect(defaultGeoipPath()).toMatch(/dbip-country\.mmdb$/);
    const geo = createGeoLookup({ logger });
    expect((await geo.lookup('1.1.1.1')).country).toMatch(/^[A-Z]{2}$/);
    expect((await geo.lookup('2606:4700:4700::1111')).country).toMatch(/^[A-Z]{2}$/);
    expect(await geo.lookup('127.0.0.1')).toEqual(EMPTY_GEO);
  });

  it('reads the bundled database without blocking the event loop: other work runs before the first answer', async () => {
    const geo = createGeoLookup({ logger });
    let otherWorkRan = false;
    setImmediate(() => {
      otherWorkRan = true;
    });
    // A synchronous read would settle the lookup in the same turn, before the setImmediate callback.
    expect((await geo.lookup('1.1.1.1')).country).toMatch(/^[A-Z]{2}$/);
    expect(otherWorkRan).toBe(true);
  });

  it('reads the file once: lookups made at once share the load, later ones never read it again', async () => {
    const path = writeTestGeoDb();
    const geo = createGeoLookup({ configuredPath: path, logger });
    const first = await Promise.all([geo.lookup('203.0.113.1'), geo.lookup('2001:db8:1:2::3')]);
    expect(first.map((fields) => fields.city)).toEqual(['Testville', 'Tokyo']);
    rmSync(path);
    expect(await geo.lookup('203.0.113.1')).toMatchObject({ city: 'Testville' });
  });
});
