import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Region {
  readonly code: string;
  readonly name: string;
  readonly sort_order: number;
}

export interface Country {
  readonly code: string;
  readonly name: string;
  readonly region: string;
  readonly latitude: number;
  readonly longitude: number;
}

export interface Location {
  readonly code: string;
  readonly name: string;
  readonly country_code: string;
  readonly timezone: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly lb_region_code: string;
  readonly sort_order: number;
  readonly is_active: boolean;
}

export interface Coordinates {
  readonly latitude: number;
  readonly longitude: number;
}

// The data lives outside src/ so that operators can review it without reading code.
const GEO_DIR = fileURLToPath(new URL('../../geo/', import.meta.url));

const COUNTRIES_HEADER = ['code', 'name', 'region', 'latitude', 'longitude'] as const;

class GeoDataError extends Error {
  constructor(file: string, message: string) {
    super(`geo/${file}: ${message}`);
    this.name = 'GeoDataError';
  }
}

/**
 * RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF between
 * records. A trailing line break does not produce an empty record.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterClosingQuote = false;
  // At end of input, tells a last record lacking its line break apart from nothing at all.
  let recordStarted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch !== '"') {
        field += ch;
      } else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        inQuotes = false;
        afterClosingQuote = true;
      }
      continue;
    }
    if (ch === ',') {
      record.push(field);
      field = '';
      afterClosingQuote = false;
      recordStarted = true;
    } else if (ch === '\n' || ch === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      afterClosingQuote = false;
      recordStarted = false;
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else if (afterClosingQuote) {
      throw new Error(`CSV: unexpected character after closing quote at offset ${i}`);
    } else if (ch === '"') {
      if (field !== '') throw new Error(`CSV: quote inside unquoted field at offset ${i}`);
      inQuotes = true;
      recordStarted = true;
    } else {
      field += ch;
      recordStarted = true;
    }
  }
  if (inQuotes) throw new Error('CSV: unterminated quoted field');
  if (recordStarted) {
    record.push(field);
    records.push(record);
  }
  return records;
}

function readGeoFile(file: string): string {
  return readFileSync(GEO_DIR + file, 'utf8');
}

function readJsonArray(file: string): Record<string, unknown>[] {
  const parsed: unknown = JSON.parse(readGeoFile(file));
  if (!Array.isArray(parsed)) throw new GeoDataError(file, 'expected a JSON array');
  return parsed.map((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new GeoDataError(file, `entry ${index} is not an object`);
    }
    return entry as Record<string, unknown>;
  });
}

function requireString(file: string, where: string, value: unknown, pattern?: RegExp): string {
  if (typeof value !== 'string' || value === '' || (pattern !== undefined && !pattern.test(value))) {
    throw new GeoDataError(file, `${where}: invalid value ${JSON.stringify(value)}`);
  }
  return value;
}

function requireNumber(file: string, where: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new GeoDataError(file, `${where}: ${JSON.stringify(value)} is not a number in [${min}, ${max}]`);
  }
  return value;
}

function requireUnique(file: string, seen: Set<string | number>, key: string | number, what: string): void {
  if (seen.has(key)) throw new GeoDataError(file, `duplicate ${what} ${JSON.stringify(key)}`);
  seen.add(key);
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// Object.freeze does not stop Map/Set mutators, and these collections are shared process-wide.
function rejectMutation(): never {
  throw new TypeError('geo data is read-only');
}

function freezeMap<K, V>(map: Map<K, V>): ReadonlyMap<K, V> {
  map.set = rejectMutation;
  map.delete = rejectMutation;
  map.clear = rejectMutation;
  return Object.freeze(map);
}

function freezeSet<T>(set: Set<T>): ReadonlySet<T> {
  set.add = rejectMutation;
  set.delete = rejectMutation;
  set.clear = rejectMutation;
  return Object.freeze(set);
}

function loadRegions(): readonly Region[] {
  const file = 'regions.json';
  const codes = new Set<string | number>();
  const orders = new Set<string | number>();
  const regions = readJsonArray(file).map((entry, index): Region => {
    const where = `entry ${index}`;
    const region: Region = Object.freeze({
      code: requireString(file, where, entry.code, /^[A-Z]{2,4}$/),
      name: requireString(file, where, entry.name),
      sort_order: requireNumber(file, where, entry.sort_order, 0, Number.MAX_SAFE_INTEGER),
    });
    requireUnique(file, codes, region.code, 'region code');
    requireUnique(file, orders, region.sort_order, 'sort_order');
    return region;
  });
  if (regions.length === 0) throw new GeoDataError(file, 'no regions');
  return Object.freeze(regions.sort((a, b) => a.sort_order - b.sort_order));
}

function loadCountries(regionCodes: ReadonlySet<string>): ReadonlyMap<string, Country> {
  const file = 'countries.csv';
  const [header, ...rows] = parseCsv(readGeoFile(file));
  if (header === undefined || header.join(',') !== COUNTRIES_HEADER.join(',')) {
    throw new GeoDataError(file, `header must be ${COUNTRIES_HEADER.join(',')}`);
  }
  const countries = new Map<string, Country>();
  rows.forEach((row, index) => {
    const where = `line ${index + 2}`;
    if (row.length !== COUNTRIES_HEADER.length) {
      throw new GeoDataError(file, `${where}: expected ${COUNTRIES_HEADER.length} fields, got ${row.length}`);
    }
    const [code, name, region, latitude, longitude] = row as [string, string, string, string, string];
    const country: Country = Object.freeze({
      code: requireString(file, where, code, /^[A-Z]{2}$/),
      name: requireString(file, where, name),
      region: requireString(file, where, region),
      latitude: requireNumber(file, where, latitude.trim() === '' ? NaN : Number(latitude), -90, 90),
      longitude: requireNumber(file, where, longitude.trim() === '' ? NaN : Number(longitude), -180, 180),
    });
    if (!regionCodes.has(country.region)) {
      throw new GeoDataError(file, `${where}: unknown region ${JSON.stringify(country.region)}`);
    }
    if (countries.has(country.code)) throw new GeoDataError(file, `duplicate country code ${country.code}`);
    countries.set(country.code, country);
  });
  return freezeMap(countries);
}

function loadLocations(
  regionCodes: ReadonlySet<string>,
  countries: ReadonlyMap<string, Country>,
): readonly Location[] {
  const file = 'locations.json';
  const codes = new Set<string | number>();
  const orders = new Set<string | number>();
  const locations = readJsonArray(file).map((entry, index): Location => {
    const where = `entry ${index}`;
    if (typeof entry.is_active !== 'boolean')
      throw new GeoDataError(file, `${where}: is_active must be boolean`);
    const location: Location = Object.freeze({
      code: requireString(file, where, entry.code, /^[A-Z]{3}$/),
      name: requireString(file, where, entry.name),
      country_code: requireString(file, where, entry.country_code, /^[A-Z]{2}$/),
      timezone: requireString(file, where, entry.timezone),
      latitude: requireNumber(file, where, entry.latitude, -90, 90),
      longitude: requireNumber(file, where, entry.longitude, -180, 180),
      lb_region_code: requireString(file, where, entry.lb_region_code),
      sort_order: requireNumber(file, where, entry.sort_order, 0, Number.MAX_SAFE_INTEGER),
      is_active: entry.is_active,
    });
    requireUnique(file, codes, location.code, 'location code');
    requireUnique(file, orders, location.sort_order, 'sort_order');
    if (!countries.has(location.country_code)) {
      throw new GeoDataError(file, `${location.code}: unknown country ${location.country_code}`);
    }
    if (!regionCodes.has(location.lb_region_code)) {
      throw new GeoDataError(file, `${location.code}: unknown region ${location.lb_region_code}`);
    }
    if (!isTimeZone(location.timezone)) {
      throw new GeoDataError(file, `${location.code}: unknown time zone ${location.timezone}`);
    }
    return location;
  });
  return Object.freeze(locations.sort((a, b) => a.sort_order - b.sort_order));
}

export const REGIONS: readonly Region[] = loadRegions();
export const REGION_CODES: ReadonlySet<string> = freezeSet(new Set(REGIONS.map((r) => r.code)));
export const COUNTRIES: ReadonlyMap<string, Country> = loadCountries(REGION_CODES);
export const LOCATIONS: readonly Location[] = loadLocations(REGION_CODES, COUNTRIES);

const CENTROIDS: ReadonlyMap<string, Coordinates> = freezeMap(
  new Map(
    [...COUNTRIES.values()].map((c) => [
      c.code,
      Object.freeze({ latitude: c.latitude, longitude: c.longitude }),
    ]),
  ),
);

const LOCATIONS_BY_CODE: ReadonlyMap<string, Location> = freezeMap(
  new Map(LOCATIONS.map((l) => [l.code, l])),
);

const COUNTRIES_BY_REGION: ReadonlyMap<string, readonly string[]> = freezeMap(
  new Map(
    REGIONS.map((region) => [
      region.code,
      Object.freeze(
        [...COUNTRIES.values()]
          .filter((c) => c.region === region.code)
          .map((c) => c.code)
          .sort(),
      ),
    ]),
  ),
);

for (const region of REGIONS) {
  if (COUNTRIES_BY_REGION.get(region.code)?.length === 0) {
    throw new GeoDataError('countries.csv', `region ${region.code} has no countries`);
  }
}

// Callers pass codes from DNS clients and API bodies; trying the exact key first avoids allocating.
function getIgnoringCase<V>(map: ReadonlyMap<string, V>, code: string): V | null {
  return map.get(code) ?? map.get(code.toUpperCase()) ?? null;
}

export function regionOfCountry(code: string): string | null {
  return getIgnoringCase(COUNTRIES, code)?.region ?? null;
}

export function countryCentroid(code: string): Coordinates | null {
  return getIgnoringCase(CENTROIDS, code);
}

export function locationByCode(code: string): Location | null {
  return getIgnoringCase(LOCATIONS_BY_CODE, code);
}

export function countriesOfRegion(code: string): string[] {
  const codes = getIgnoringCase(COUNTRIES_BY_REGION, code);
  return codes === null ? [] : [...codes];
}
