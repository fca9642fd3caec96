import { isIPv6 } from 'node:net';
import { fileURLToPath } from 'node:url';
import maxmind from 'maxmind';
import type { Response } from 'maxmind';
import { COUNTRIES } from './geo-data.ts';

export interface IpLocation {
  readonly country: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly precision: 'city' | 'country';
}

export interface IpLocator {
  /** Synchronous, and results are shared frozen objects: cheap enough for the DNS hot path. */
  lookup(ip: string): IpLocation | null;
  /**
   * The same for an IPv4 address given as an unsigned 32-bit number (e.g. ECS bytes), without
   * formatting it to text. Optional: callers fall back to `lookup` when a locator lacks it.
   */
  lookupIpv4?(address: number): IpLocation | null;
}

export const DEFAULT_GEOIP_DB: string = fileURLToPath(
  new URL(
    '../../node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
    import.meta.url,
  ),
);

// The subset of record shapes we read: ip-location-db writes `country_code`, MaxMind GeoIP2/GeoLite2
// writes `country.iso_code` and, in City editions, `location`.
interface GeoRecord {
  readonly country_code?: unknown;
  readonly country?: { readonly iso_code?: unknown } | null;
  readonly registered_country?: { readonly iso_code?: unknown } | null;
  readonly location?: { readonly latitude?: unknown; readonly longitude?: unknown } | null;
}

// Longest textual IPv6 address: six full groups followed by a dotted IPv4 tail.
const MAX_IP_TEXT_LENGTH = 45;

const IPV4_MAPPED_PREFIX = /^(?:(?:0{1,4}:){5}|::(?:0{1,4}:){0,4})ffff:/i;

// Shared, frozen results: a country-level answer costs no allocation per query.
const COUNTRY_RESULTS: ReadonlyMap<string, IpLocation> = new Map(
  [...COUNTRIES.values()].map((c) => [
    c.code,
    Object.freeze({
      country: c.code,
      latitude: c.latitude,
      longitude: c.longitude,
      precision: 'country' as const,
    }),
  ]),
);

/** Dotted-quad IPv4 in text[start, end) as an unsigned 32-bit value, or -1. Rejects leading zeros. */
function parseIpv4(text: string, start: number, end: number): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return -1;
      octet = octet * 10 + (c - 48);
      if (octet > 255) return -1;
      digits++;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return -1;
    }
  }
  return digits > 0 && dots === 3 ? value * 256 + octet : -1;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The 16-bit group starting at text[start]; an empty group (as in `::`) reads as 0. */
function hextetAt(text: string, start: number): number {
  let value = 0;
  for (let i = start; i < start + 4 && i < text.length; i++) {
    const d = hexDigit(text.charCodeAt(i));
    if (d < 0) break;
    value = value * 16 + d;
  }
  return value;
}

/**
 * Addresses that are not publicly routable must never be located: the database maps some of them
 * (e.g. 172.16/12, 192.168/16, 2001:db8::/32) to countries, which would steer on noise.
 */
function isPublicIpv4(a: number): boolean {
  const first = a >>> 24;
  return !(
    first === 0 ||
    first === 10 ||
    first === 127 ||
    first >= 224 || // multicast, reserved, broadcast
    a >>> 22 === 0x191 || // 100.64.0.0/10 carrier-grade NAT
    a >>> 16 === 0xa9fe || // 169.254.0.0/16 link-local
    a >>> 20 === 0xac1 || // 172.16.0.0/12
    a >>> 8 === 0xc00000 || // 192.0.0.0/24 protocol assignments
    a >>> 8 === 0xc00002 || // 192.0.2.0/24 documentation
    a >>> 16 === 0xc0a8 || // 192.168.0.0/16
    a >>> 17 === 0x6309 || // 198.18.0.0/15 benchmarking
    a >>> 8 === 0xc63364 || // 198.51.100.0/24 documentation
    a >>> 8 === 0xcb0071 // 203.0.113.0/24 documentation
  );
}

function formatIpv4(a: number): string {
  return `${a >>> 24}.${(a >>> 16) & 0xff}.${(a >>> 8) & 0xff}.${a & 0xff}`;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (dotted or hex tail), or -1. */
function mappedIpv4(ip: string): number {
  const prefix = IPV4_MAPPED_PREFIX.exec(ip);
  if (prefix === null) return -1;
  const tail = prefix[0].length;
  if (ip.includes('.', tail)) return parseIpv4(ip, tail, ip.length);
  const colon = ip.indexOf(':', tail);
  if (colon === -1) return -1;
  return ((hextetAt(ip, tail) << 16) | hextetAt(ip, colon + 1)) >>> 0;
}

/**
 * The string to query the database with, or null when `ip` is not a publicly routable address.
 * The reader does not validate (it reads "8.8.8.8x" as 8.8.8.8), so validation happens here.
 */
function databaseKey(ip: string): string | null {
  if (ip.length < 2 || ip.length > MAX_IP_TEXT_LENGTH) return null;
  const v4 = parseIpv4(ip, 0, ip.length);
  if (v4 >= 0) return isPublicIpv4(v4) ? ip : null;
  if (!isIPv6(ip) || ip.includes('%')) return null;
  const first = hextetAt(ip, 0);
  if (first === 0) {
    // This database files IPv4 only under ::/96, not under the mapped range.
    const mapped = mappedIpv4(ip);
    return mapped >= 0 && isPublicIpv4(mapped) ? formatIpv4(mapped) : null;
  }
  // Only 2000::/3 is allocated for global unicast; the rest is local, multicast or reserved.
  if (first < 0x2000 || first > 0x3fff) return null;
  const second = hextetAt(ip, ip.indexOf(':') + 1);
  if (first === 0x2001 && second === 0x0db8) return null; // documentation
  if (first === 0x3fff && second < 0x1000) return null; // documentation, RFC 9637
  return ip;
}

function countryOf(record: GeoRecord): string | null {
  // registered_country is where the network is registered: a fallback for anycast and satellite
  // ranges that MaxMind leaves without a country.
  const code = record.country_code ?? record.country?.iso_code ?? record.registered_country?.iso_code;
  return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null;
}

/** Exported for tests: the database shipped here has no GeoIP2-shaped records to exercise. */
export function locationOfRecord(value: unknown): IpLocation | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as GeoRecord;
  const country = countryOf(record);
  if (country === null) return null;
  const latitude = record.location?.latitude;
  const longitude = record.location?.longitude;
  if (
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180
  ) {
    return Object.freeze({ country, latitude, longitude, precision: 'city' as const });
  }
  // A code outside ISO 3166-1 (e.g. XK, EU) has no centroid, so there is nothing to steer on.
  return COUNTRY_RESULTS.get(country) ?? null;
}

/**
 * The same few thousand resolver addresses query an authoritative server over and over, and a
 * database walk costs ~0.6 µs against ~0.05 µs for a map hit. Two generations approximate LRU
 * without per-hit bookkeeping: entries still in use get copied forward before the old one drops.
 */
const CACHE_GENERATION_SIZE = 4096;

export async function openIpLocator(path: string): Promise<IpLocator> {
  const reader = await maxmind.open<Response>(path);
  // Keyed by the reader's decoded record, which its own cache hands back for every address in the
  // same network, so addresses of one network share one frozen result.
  const resolved = new WeakMap<object, IpLocation | null>();
  let recent = new Map<string, IpLocation | null>();
  let older = new Map<string, IpLocation | null>();
  // IPv4 by numeric address (the whole address, so results are exact whatever the network size).
  let recentV4 = new Map<number, IpLocation | null>();
  let olderV4 = new Map<number, IpLocation | null>();

  function remember(ip: string, result: IpLocation | null): IpLocation | null {
    if (recent.size >= CACHE_GENERATION_SIZE) {
      older = recent;
      recent = new Map();
    }
    recent.set(ip, result);
    return result;
  }

  function locate(ip: string): IpLocation | null {
    const key = databaseKey(ip);
    return key === null ? null : locateKey(key);
  }

  function locateKey(key: string): IpLocation | null {
    let record: unknown;
    try {
      record = reader.get(key);
    } catch {
      // An IPv4-only database throws on IPv6 input.
      return null;
    }
    if (typeof record !== 'object' || record === null) return null;
    let result = resolved.get(record);
    if (result === undefined) {
      result = locationOfRecord(record);
      resolved.set(record, result);
    }
    return result;
  }

  return {
    lookup(ip: string): IpLocation | null {
      const hit = recent.get(ip);
      if (hit !== undefined) return hit;
      const aged = older.get(ip);
      return remember(ip, aged !== undefined ? aged : locate(ip));
    },
    lookupIpv4(address: number): IpLocation | null {
      const a = address >>> 0;
      const hit = recentV4.get(a);
      if (hit !== undefined) return hit;
      const aged = olderV4.get(a);
      // Text only on a cache miss: the reader takes nothing else.
      const result = aged !== undefined ? aged : isPublicIpv4(a) ? locateKey(formatIpv4(a)) : null;
      if (recentV4.size >= CACHE_GENERATION_SIZE) {
        olderV4 = recentV4;
        recentV4 = new Map();
      }
      recentV4.set(a, result);
      return result;
    },
  };
}
