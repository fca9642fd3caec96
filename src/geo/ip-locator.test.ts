import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GEOIP_DB, locationOfRecord, openIpLocator } from './ip-locator.ts';
import type { IpLocator } from './ip-locator.ts';
import { countryCentroid } from './geo-data.ts';

let locator: IpLocator;

beforeAll(async () => {
  locator = await openIpLocator(DEFAULT_GEOIP_DB);
});

describe('openIpLocator with the shipped database', () => {
  it('resolves DEFAULT_GEOIP_DB to an absolute path', () => {
    expect(DEFAULT_GEOIP_DB).toMatch(/^\/.*\/geo-whois-asn-country\.mmdb$/);
  });

  it('locates well-known public IPv4 addresses to their country centroid', () => {
    expect(locator.lookup('8.8.8.8')).toEqual({
      country: 'US',
      ...countryCentroid('US'),
      precision: 'country',
    });
    // RIPE NCC's own network (Amsterdam) and Deutsche Telekom's DNS resolvers.
    expect(locator.lookup('193.0.6.139')?.country).toBe('NL');
    expect(locator.lookup('194.25.134.8')?.country).toBe('DE');
    // Free (Iliad) in France.
    expect(locator.lookup('212.27.48.10')?.country).toBe('FR');
  });

  it('locates IPv6 addresses', () => {
    expect(locator.lookup('2001:4860:4860::8888')?.country).toBe('US');
    expect(locator.lookup('2001:67c:2e8:22::c100:68b')?.country).toBe('NL');
    expect(locator.lookup('2A01:4F8::1')?.country).toBe('DE');
  });

  it('looks IPv4-mapped IPv6 addresses up as IPv4', () => {
    expect(locator.lookup('::ffff:8.8.8.8')?.country).toBe('US');
    expect(locator.lookup('::ffff:808:808')?.country).toBe('US');
    expect(locator.lookup('::FFFF:192.168.1.1')).toBeNull();
  });

  it('returns the same frozen result for the same network and for repeats', () => {
    const a = locator.lookup('8.8.8.8');
    expect(Object.isFrozen(a)).toBe(true);
    expect(locator.lookup('8.8.4.4')).toBe(a);
    expect(locator.lookup('8.8.8.8')).toBe(a);
  });

  it('stays correct once its cache has turned over', () => {
    for (let i = 0; i < 10_000; i++) locator.lookup(`9.${i >> 8}.${i & 255}.1`);
    expect(locator.lookup('193.0.6.139')?.country).toBe('NL');
    expect(locator.lookup('10.0.0.1')).toBeNull();
    expect(locator.lookup('8.8.8.8')?.country).toBe('US');
  });

  it('returns null for private, reserved and documentation addresses', () => {
    for (const ip of [
      '10.1.2.3',
      '127.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.5',
      '198.18.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '3fff::1',
    ]) {
      expect(locator.lookup(ip), ip).toBeNull();
    }
  });

  it('returns null for anything that is not an IP address', () => {
    for (const ip of [
      '',
      'garbage',
      '8.8.8.8x',
      '8.8.8',
      '8.8.8.8.8',
      '08.8.8.8',
      '256.1.1.1',
      ' 8.8.8.8',
      '2001:4860:4860::8888::1',
      '2001:4860:4860::8888%eth0',
      'example.com',
      '1'.repeat(100),
    ]) {
      expect(locator.lookup(ip), ip).toBeNull();
    }
  });

  it('keeps 172.15 and 172.32 outside the private block', () => {
    expect(locator.lookup('172.32.0.1')).not.toBeNull();
    expect(locator.lookup('172.15.255.1')).not.toBeNull();
  });
});

describe('locationOfRecord', () => {
  it('reads the ip-location-db shape as country precision', () => {
    expect(locationOfRecord({ country_code: 'de' })).toEqual({
      country: 'DE',
      ...countryCentroid('DE'),
      precision: 'country',
    });
  });

  it('reads GeoLite2 City records with coordinates as city precision', () => {
    const record = {
      country: { iso_code: 'GB', geoname_id: 2635167, names: { en: 'United Kingdom' } },
      location: { accuracy_radius: 20, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
    };
    expect(locationOfRecord(record)).toEqual({
      country: 'GB',
      latitude: 51.5142,
      longitude: -0.0931,
      precision: 'city',
    });
  });

  it('falls back to the country centroid for GeoLite2 Country records', () => {
    expect(locationOfRecord({ country: { iso_code: 'JP' } })).toEqual({
      country: 'JP',
      ...countryCentroid('JP'),
      precision: 'country',
    });
    expect(locationOfRecord({ registered_country: { iso_code: 'FR' } })?.country).toBe('FR');
  });

  it('gives up without a usable country or coordinates', () => {
    expect(locationOfRecord({})).toBeNull();
    expect(locationOfRecord(null)).toBeNull();
    expect(locationOfRecord({ country_code: 'XK' })).toBeNull();
    expect(locationOfRecord({ country_code: 42 })).toBeNull();
    expect(locationOfRecord({ location: { latitude: 1, longitude: 2 } })).toBeNull();
    expect(
      locationOfRecord({ country: { iso_code: 'XK' }, location: { latitude: 42.66, longitude: 21.17 } }),
    ).toEqual({
      country: 'XK',
      latitude: 42.66,
      longitude: 21.17,
      precision: 'city',
    });
  });
});
