import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  LOCATIONS,
  REGION_CODES,
  REGIONS,
  countriesOfRegion,
  countryCentroid,
  locationByCode,
  parseCsv,
  regionOfCountry,
} from './geo-data.ts';

const EXPECTED_REGIONS = ['WNAM', 'ENAM', 'WEU', 'EEU', 'SEAS', 'NEAS', 'SAS', 'ME', 'AF', 'OC', 'SAM'];

describe('parseCsv', () => {
  it('handles quoted commas, doubled quotes, line breaks inside quotes and CRLF', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n"x\ny",,z\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['x\ny', '', 'z'],
    ]);
  });

  it('keeps a last record without a line break and a trailing empty field', () => {
    expect(parseCsv('a,b\nc,')).toEqual([
      ['a', 'b'],
      ['c', ''],
    ]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('""')).toEqual([['']]);
  });

  it('rejects malformed quoting', () => {
    expect(() => parseCsv('"abc')).toThrow(/unterminated/);
    expect(() => parseCsv('"a"b,c')).toThrow(/after closing quote/);
    expect(() => parseCsv('a"b,c')).toThrow(/quote inside/);
  });
});

describe('regions', () => {
  it('are the 11 load-balancer regions in contract order', () => {
    expect(REGIONS.map((r) => r.code)).toEqual(EXPECTED_REGIONS);
    expect(REGIONS.map((r) => r.sort_order)).toEqual(EXPECTED_REGIONS.map((_, i) => i + 1));
    expect([...REGION_CODES]).toEqual(EXPECTED_REGIONS);
  });

  it('each hold countries and at least two locations', () => {
    for (const code of EXPECTED_REGIONS) {
      expect(countriesOfRegion(code).length, code).toBeGreaterThan(0);
      expect(LOCATIONS.filter((l) => l.lb_region_code === code).length, code).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('countries', () => {
  it('cover all 249 ISO 3166-1 alpha-2 codes, and no user-assigned ones', () => {
    expect(COUNTRIES.size).toBe(249);
    for (const code of ['AQ', 'BV', 'HM', 'UM', 'AX', 'BQ', 'CW', 'SX', 'SS', 'GS', 'IO', 'TF']) {
      expect(COUNTRIES.has(code), code).toBe(true);
    }
    for (const code of ['XK', 'EU', 'UK', 'AN', 'YU']) expect(COUNTRIES.has(code), code).toBe(false);
  });

  it('agree with the ICU region list', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRIES.keys()) expect(names.of(code), code).not.toBe(code);
  });

  it('each sit in exactly one region', () => {
    const all = REGIONS.flatMap((r) => countriesOfRegion(r.code));
    expect(all.length).toBe(COUNTRIES.size);
    expect(new Set(all).size).toBe(COUNTRIES.size);
    for (const country of COUNTRIES.values()) expect(REGION_CODES.has(country.region)).toBe(true);
  });

  it('follow the contract for the fixed cases', () => {
    expect(regionOfCountry('US')).toBe('ENAM');
    expect(regionOfCountry('CA')).toBe('WNAM');
    expect(regionOfCountry('RU')).toBe('EEU');
    expect(regionOfCountry('AQ')).toBe('OC');
    expect(regionOfCountry('DE')).toBe('WEU');
    expect(regionOfCountry('BR')).toBe('SAM');
    expect(regionOfCountry('AR')).toBe('SAM');
    expect(regionOfCountry('EG')).toBe('AF');
    expect(regionOfCountry('ZA')).toBe('AF');
    expect(regionOfCountry('JP')).toBe('NEAS');
    expect(regionOfCountry('SG')).toBe('SEAS');
    expect(regionOfCountry('IN')).toBe('SAS');
    expect(regionOfCountry('AE')).toBe('ME');
    expect(regionOfCountry('AU')).toBe('OC');
  });

  it('keep names with commas intact', () => {
    expect(COUNTRIES.get('BQ')?.name).toBe('Bonaire, Sint Eustatius and Saba');
    expect(COUNTRIES.get('SH')?.name).toBe('Saint Helena, Ascension and Tristan da Cunha');
  });

  it('have plausible centroids', () => {
    for (const c of COUNTRIES.values()) {
      expect(Math.abs(c.latitude), c.code).toBeLessThanOrEqual(90);
      expect(Math.abs(c.longitude), c.code).toBeLessThanOrEqual(180);
    }
    // Hemisphere spot checks catch swapped or mis-signed coordinates.
    expect(countryCentroid('US')).toEqual({ latitude: 39.83, longitude: -98.58 });
    expect(countryCentroid('au')!.latitude).toBeLessThan(0);
    expect(countryCentroid('BR')!.longitude).toBeLessThan(0);
    expect(countryCentroid('JP')!.longitude).toBeGreaterThan(120);
  });

  it('look up case-insensitively and return null for unknown codes', () => {
    expect(regionOfCountry('us')).toBe('ENAM');
    expect(regionOfCountry('Ca')).toBe('WNAM');
    expect(regionOfCountry('XK')).toBeNull();
    expect(regionOfCountry('')).toBeNull();
    expect(countryCentroid('ZZ')).toBeNull();
  });

  it('list a region sorted, as a copy', () => {
    const enam = countriesOfRegion('enam');
    expect(enam).toContain('US');
    expect(enam).toEqual([...enam].sort());
    enam.length = 0;
    expect(countriesOfRegion('ENAM').length).toBeGreaterThan(0);
    expect(countriesOfRegion('NOPE')).toEqual([]);
  });
});

describe('locations', () => {
  it('are at least 30, uniquely coded, in increasing sort_order', () => {
    expect(LOCATIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(LOCATIONS.map((l) => l.code)).size).toBe(LOCATIONS.length);
    for (const l of LOCATIONS) expect(l.code).toMatch(/^[A-Z]{3}$/);
    const orders = LOCATIONS.map((l) => l.sort_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(new Set(orders).size).toBe(orders.length);
  });

  it('have exactly two inactive entries', () => {
    expect(LOCATIONS.filter((l) => !l.is_active).length).toBe(2);
  });

  it('take the region of their country', () => {
    for (const l of LOCATIONS) expect(l.lb_region_code, l.code).toBe(regionOfCountry(l.country_code));
  });

  it('are named "City, Country" after countries.csv', () => {
    for (const l of LOCATIONS) {
      expect(l.name, l.code).toMatch(new RegExp(`^[^,]+, ${COUNTRIES.get(l.country_code)!.name}$`));
    }
  });

  it('lie near their country', () => {
    // Generous bound: it only catches swapped signs or a location filed under the wrong country.
    for (const l of LOCATIONS) {
      const c = countryCentroid(l.country_code)!;
      expect(Math.abs(l.latitude - c.latitude), l.code).toBeLessThan(30);
    }
  });

  it('look up by code case-insensitively', () => {
    expect(locationByCode('fra')?.name).toBe('Frankfurt, Germany');
    expect(locationByCode('FRA')?.timezone).toBe('Europe/Berlin');
    expect(locationByCode('XXX')).toBeNull();
  });
});

describe('immutability', () => {
  it('rejects changes to the shared data', () => {
    expect(Object.isFrozen(REGIONS)).toBe(true);
    expect(Object.isFrozen(LOCATIONS[0])).toBe(true);
    expect(Object.isFrozen(COUNTRIES.get('US'))).toBe(true);
    expect(() => (COUNTRIES as Map<string, unknown>).set('XK', {})).toThrow(TypeError);
    expect(() => (REGION_CODES as Set<string>).add('MARS')).toThrow(TypeError);
    expect(COUNTRIES.has('XK')).toBe(false);
  });
});
