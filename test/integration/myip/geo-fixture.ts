import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMmdb } from './mmdb-writer.js';

/**
 * A test database with one network of each record layout: MaxMind GeoIP2 (nested, with and without a
 * continent) and ip-location-db (flat). Documentation ranges only.
 */
export const GEO_RECORDS = {
  '203.0.113.0/24': {
    city: { names: { en: 'Testville', fr: 'Villetest' } },
    continent: { code: 'EU', names: { en: 'Europe' } },
    country: { iso_code: 'FR', names: { en: 'France' } },
    location: { latitude: 48.8566, longitude: 2.3522, time_zone: 'Europe/Paris' },
    subdivisions: [{ iso_code: 'IDF', names: { en: 'Ile-de-France' } }],
    postal: { code: '75001' },
  },
  '198.51.100.0/25': { country: { iso_code: 'DE' } },
  '2001:db8:1::/48': {
    country_code: 'JP',
    city: 'Tokyo',
    latitude: 35.6762,
    longitude: 139.6503,
    timezone: 'Asia/Tokyo',
    state1: 'Tokyo',
    postcode: '100-0001',
  },
};

/** Writes the test database to a temp file and returns its path (for GEOIP_DB). */
export function writeTestGeoDb(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'coinop-geo-')), 'test.mmdb');
  writeFileSync(path, writeMmdb(GEO_RECORDS));
  return path;
}
