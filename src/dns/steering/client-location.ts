import { locationByCode, regionOfCountry, countryCentroid } from '../../geo/geo-data.ts';
import type { IpLocator } from '../../geo/ip-locator.ts';
import type { LocationStrategy } from './steering-config.ts';
import { subnetKeyOfText } from './subnet-key.ts';

/**
 * Where the client is, as steering sees it. `location_pools` is always keyed by `pop` (the node
 * that answers); the strategy decides where country, region and coordinates come from.
 */
export interface ClientContext {
  readonly source: 'pop' | 'resolver_ip' | 'override';
  /** Location code (upper case) of the answering node. */
  readonly pop: string;
  /** ISO 3166-1 alpha-2, upper case; null when unknown. */
  readonly country: string | null;
  readonly region: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  /** The address behind the context: the ECS address when usable, else the resolver's; may be null. */
  readonly clientIp: string | null;
  /** Unsigned 32-bit hash of the client subnet (session affinity, rendezvous hashing). */
  readonly affinityKey: number;
  /** Prefix length of that subnet: the ECS source prefix, else 24 (IPv4) / 56 (IPv6). */
  readonly subnetPrefix: number;
  /** true when the context came from an ECS option with a non-zero source prefix. */
  readonly fromEcs: boolean;
}

/** Preview overrides. `country` alone derives region (regionOfCountry) and coordinates (centroid). */
export interface LocationOverrides {
  readonly country?: string | null;
  readonly region?: string | null;
  readonly latitude?: number | null;
  readonly longitude?: number | null;
}

export interface ClientContextInput {
  readonly strategy: LocationStrategy;
  readonly pop: string;
  /** The resolver's (query source) address; null when there is none (preview without an IP). */
  readonly clientIp: string | null;
  /** EDNS Client Subnet from the query, address in text form. Source prefix 0 counts as absent. */
  readonly ecs?: { readonly address: string; readonly sourcePrefix: number } | null;
  readonly overrides?: LocationOverrides | null;
  readonly locator?: IpLocator | null;
}

const DEFAULT_PREFIX_V4 = 24;
const DEFAULT_PREFIX_V6 = 56;

function isV6(ip: string): boolean {
  return ip.indexOf(':') >= 0;
}

/** `::ffff:192.0.2.1` (dual-stack sockets) → `192.0.2.1`, so IPv4 clients get IPv4 subnets. */
function unmapped(ip: string): string {
  return ip.length > 7 && ip.charCodeAt(0) === 58 && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)
    ? ip.slice(7)
    : ip;
}

function has<T>(v: T | null | undefined): v is T {
  return v !== null && v !== undefined;
}

/** Upper case without allocating when it already is (the DNS path passes the configured POP). */
function upper(code: string): string {
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c >= 97 && c <= 122) return code.toUpperCase();
  }
  return code;
}

/** Pure apart from the locator lookup (a synchronous, read-only database). */
export function resolveClientContext(input: ClientContextInput): ClientContext {
  const pop = upper(input.pop);
  const ecs = input.ecs ?? null;
  const fromEcs = ecs !== null && ecs.sourcePrefix > 0;
  const raw = fromEcs ? ecs.address : input.clientIp;
  const ip = raw === null ? null : unmapped(raw);
  let subnetPrefix = 0;
  let affinityKey = 0;
  if (ip !== null) {
    subnetPrefix = fromEcs ? ecs.sourcePrefix : isV6(ip) ? DEFAULT_PREFIX_V6 : DEFAULT_PREFIX_V4;
    affinityKey = subnetKeyOfText(ip, subnetPrefix);
  }

  let source: ClientContext['source'] = input.strategy;
  let country: string | null = null;
  let region: string | null = null;
  let latitude: number | null = null;
  let longitude: number | null = null;
  if (input.strategy === 'pop') {
    const loc = locationByCode(pop);
    if (loc !== null) {
      country = loc.country_code;
      region = loc.lb_region_code;
      latitude = loc.latitude;
      longitude = loc.longitude;
    }
  } else if (ip !== null && input.locator) {
    const hit = input.locator.lookup(ip);
    if (hit !== null) {
      country = hit.country;
      region = regionOfCountry(hit.country);
      latitude = hit.latitude;
      longitude = hit.longitude;
    }
  }

  const o = input.overrides;
  if (o) {
    if (has(o.country)) {
      source = 'override';
      country = upper(o.country);
      region = regionOfCountry(country);
      const c = countryCentroid(country);
      latitude = c ? c.latitude : null;
      longitude = c ? c.longitude : null;
    }
    if (has(o.region)) {
      source = 'override';
      region = upper(o.region);
      // A region alone says nothing about country or coordinates: do not keep stale ones.
      if (!has(o.country)) {
        country = null;
        latitude = null;
        longitude = null;
      }
    }
    if (has(o.latitude) && has(o.longitude)) {
      source = 'override';
      latitude = o.latitude;
      longitude = o.longitude;
    }
  }

  return {
    source,
    pop,
    country,
    region,
    latitude,
    longitude,
    clientIp: ip,
    affinityKey,
    subnetPrefix,
    fromEcs,
  };
}
