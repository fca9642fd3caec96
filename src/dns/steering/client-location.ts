import { locationByCode, regionOfCountry, countryCentroid } from '../../geo/geo-data.ts';
import type { IpLocation, IpLocator } from '../../geo/ip-locator.ts';
import type { LocationStrategy } from './steering-config.ts';
import type { ClientSubnet } from '../wire/message/client-subnet.ts';
import { ECS_FAMILY_IPV4 } from '../wire/message/client-subnet.ts';
import { bytesToIpv6 } from '../../net/ip-address-text.ts';
import { subnetKeyOfBytes, subnetKeyOfText } from './subnet-key.ts';

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

/**
 * A ClientContext filled in place, one per DNS handler (or module): the DNS path resolves a context
 * per steered query, and steer() keeps no reference to it. `clientIp` of an ECS context is only
 * formatted to text when read (the DNS path never reads it).
 */
export class ReusableClientContext implements ClientContext {
  source: ClientContext['source'] = 'pop';
  pop = '';
  country: string | null = null;
  region: string | null = null;
  latitude: number | null = null;
  longitude: number | null = null;
  affinityKey = 0;
  subnetPrefix = 0;
  fromEcs = false;
  /** The resolver's address text, or the ECS address text once formatted. */
  private ipText: string | null = null;
  /** ECS family whose address (in `ecsAddress`) still awaits formatting; 0 when none. */
  private pendingFamily = 0;
  private readonly ecsAddress = new Uint8Array(16);

  get clientIp(): string | null {
    if (this.pendingFamily !== 0) {
      const a = this.ecsAddress;
      this.ipText =
        this.pendingFamily === ECS_FAMILY_IPV4 ? `${a[0]}.${a[1]}.${a[2]}.${a[3]}` : unmapped(bytesToIpv6(a));
      this.pendingFamily = 0;
    }
    return this.ipText;
  }

  /** Fills every field from a context built by resolveClientContext. */
  copyFrom(c: ClientContext): this {
    this.source = c.source;
    this.pop = c.pop;
    this.country = c.country;
    this.region = c.region;
    this.latitude = c.latitude;
    this.longitude = c.longitude;
    this.affinityKey = c.affinityKey;
    this.subnetPrefix = c.subnetPrefix;
    this.fromEcs = c.fromEcs;
    this.ipText = c.clientIp;
    this.pendingFamily = 0;
    return this;
  }

  /** @internal */
  setEcsIpv4(ecs: ClientSubnet): number {
    const a = this.ecsAddress;
    const n = ecs.addressLength;
    for (let i = 0; i < 4; i++) a[i] = i < n ? ecs.address[i]! : 0;
    this.ipText = null;
    this.pendingFamily = ECS_FAMILY_IPV4;
    return ((a[0]! << 24) | (a[1]! << 16) | (a[2]! << 8) | a[3]!) >>> 0;
  }

  /** @internal */
  setIpText(ip: string | null): void {
    this.ipText = ip;
    this.pendingFamily = 0;
  }

  /** @internal */
  get ecsBytes(): Uint8Array {
    return this.ecsAddress;
  }
}

const ecsTextScratch = new Uint8Array(16);

/** Text of an ECS address (bits beyond the source prefix are already zero). */
export function clientSubnetText(ecs: ClientSubnet): string {
  const n = ecs.addressLength;
  const a = ecs.address;
  if (ecs.family === ECS_FAMILY_IPV4) {
    return `${n > 0 ? a[0] : 0}.${n > 1 ? a[1] : 0}.${n > 2 ? a[2] : 0}.${n > 3 ? a[3] : 0}`;
  }
  for (let i = 0; i < 16; i++) ecsTextScratch[i] = i < n ? a[i]! : 0;
  return bytesToIpv6(ecsTextScratch);
}

function locateInto(out: ReusableClientContext, hit: IpLocation | null): void {
  if (hit !== null) {
    out.country = hit.country;
    out.region = regionOfCountry(hit.country);
    out.latitude = hit.latitude;
    out.longitude = hit.longitude;
  }
}

/**
 * resolveClientContext for a DNS query (no overrides), written into `out`: the same fields from the
 * same inputs, without building an input object or, for an IPv4 ECS option, any address text
 * (the subnet key hashes the option's bytes; the locator takes the address as a number).
 */
export function resolveDnsClientContext(
  out: ReusableClientContext,
  strategy: LocationStrategy,
  rawPop: string,
  clientIp: string | null,
  ecs: ClientSubnet,
  locator: IpLocator | null,
): ClientContext {
  const fromEcs = ecs.present && ecs.sourcePrefix > 0;
  if (fromEcs && ecs.family !== ECS_FAMILY_IPV4) {
    // IPv6 ECS (rare; may be IPv4-mapped): the general path.
    return out.copyFrom(
      resolveClientContext({
        strategy,
        pop: rawPop,
        clientIp,
        ecs: { address: clientSubnetText(ecs), sourcePrefix: ecs.sourcePrefix },
        locator,
      }),
    );
  }
  const pop = upper(rawPop);
  out.source = strategy;
  out.pop = pop;
  out.country = null;
  out.region = null;
  out.latitude = null;
  out.longitude = null;
  out.fromEcs = fromEcs;
  let v4 = -1;
  let ip: string | null = null;
  if (fromEcs) {
    v4 = out.setEcsIpv4(ecs);
    out.subnetPrefix = ecs.sourcePrefix;
    out.affinityKey = subnetKeyOfBytes(out.ecsBytes, 4, 4, Math.min(ecs.sourcePrefix, 32));
  } else {
    ip = clientIp === null ? null : unmapped(clientIp);
    out.setIpText(ip);
    if (ip === null) {
      out.subnetPrefix = 0;
      out.affinityKey = 0;
    } else {
      out.subnetPrefix = isV6(ip) ? DEFAULT_PREFIX_V6 : DEFAULT_PREFIX_V4;
      out.affinityKey = subnetKeyOfText(ip, out.subnetPrefix);
    }
  }
  if (strategy === 'pop') {
    const loc = locationByCode(pop);
    if (loc !== null) {
      out.country = loc.country_code;
      out.region = loc.lb_region_code;
      out.latitude = loc.latitude;
      out.longitude = loc.longitude;
    }
  } else if (locator) {
    if (v4 >= 0) {
      locateInto(out, locator.lookupIpv4 ? locator.lookupIpv4(v4) : locator.lookup(out.clientIp!));
    } else if (ip !== null) {
      locateInto(out, locator.lookup(ip));
    }
  }
  return out;
}
