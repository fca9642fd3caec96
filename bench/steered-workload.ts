/**
 * The `steered` macro workload (macro-suite.ts): load balancers at STEERED_NAMES names of the bench
 * zone, geo steering by the resolver's location (`resolver_ip`, so the EDNS Client Subnet decides)
 * over failover pools, asked A queries that carry client subnets of STEERED_COUNTRIES countries;
 * Knot answers the same names statically, one A record each, to the same packets.
 *
 * dnsperf's text query file cannot carry an ECS option per query (`-E` sets one for a whole run),
 * so the queries are written as raw packets in dnsperf's binary input format (`-B`: each message
 * preceded by its 16-bit length, as on a TCP stream): one file, one dnsperf run, every query with
 * its own subnet, as a resolver serving many clients would send them.
 *
 * What the product may keep in its answer cache: with failover pools (one candidate a query) and
 * the location from the ECS option, each (name, subnet) answer is kept (answer-cache.ts); the file
 * holds STEERED_NAMES × STEERED_COUNTRIES × SUBNETS_PER_COUNTRY distinct questions, asked in turn.
 * Weighted pools of several members or a `random` policy draw per query and are never kept: such a
 * configuration costs the uncached path on every query.
 */
import { writeFileSync } from 'node:fs';
import { regionOfCountry } from '../src/geo/geo-data.ts';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../src/geo/ip-locator.ts';

export const STEERED_NAMES = 50;
export const STEERED_COUNTRIES = 65;
const SUBNETS_PER_COUNTRY = 4;
const POOLS = 8;
const TTL = 30;
/** Addresses scanned at most to find the countries' subnets (deterministic, seeded). */
const SCAN_MAX = 4_000_000;

/** The API call of startProduct: method, path under /api/v1, body, token → status and text. */
export type ApiCall = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) => Promise<{ status: number; text: string }>;

interface Subnet {
  readonly country: string;
  /** First three octets of a /24. */
  readonly octets: readonly [number, number, number];
}

/** /24 networks located in STEERED_COUNTRIES countries by the product's GeoIP database. */
async function findSubnets(): Promise<Subnet[]> {
  const locator = await openIpLocator(DEFAULT_GEOIP_DB);
  const byCountry = new Map<string, Subnet[]>();
  const full: string[] = [];
  let x = 0x2545f491;
  for (let i = 0; i < SCAN_MAX && full.length < STEERED_COUNTRIES; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const net = x >>> 8;
    const octets = [net >>> 16, (net >>> 8) & 255, net & 255] as const;
    const hit = locator.lookup(`${octets[0]}.${octets[1]}.${octets[2]}.1`);
    if (hit === null || regionOfCountry(hit.country) === null) continue;
    const list = byCountry.get(hit.country) ?? [];
    if (list.length >= SUBNETS_PER_COUNTRY) continue;
    list.push({ country: hit.country, octets });
    byCountry.set(hit.country, list);
    if (list.length === SUBNETS_PER_COUNTRY) full.push(hit.country);
  }
  if (full.length < STEERED_COUNTRIES) throw new Error(`only ${full.length} countries found`);
  return full.flatMap((c) => byCountry.get(c)!);
}

function encodeName(name: string): number[] {
  const out: number[] = [];
  for (const label of name.split('.')) out.push(label.length, ...Buffer.from(label, 'latin1'));
  out.push(0);
  return out;
}

/** An A query with EDNS (payload 1232) and a Client Subnet option for `s` (/24). */
function steeredQuery(name: string, s: Subnet, id: number): Buffer {
  const ecs = [0, 1, 24, 0, ...s.octets];
  const opt = [0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 4 + ecs.length, 0, 8, 0, ecs.length, ...ecs];
  return Buffer.from([
    id >> 8,
    id & 255,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    1,
    ...encodeName(name),
    0,
    1,
    0,
    1,
    ...opt,
  ]);
}

function hostName(i: number, origin: string): string {
  return `lb${i}.${origin}`;
}

export interface SteeredWorkload {
  /** dnsperf `-B` input. */
  readonly queryFile: string;
  readonly queries: number;
  readonly countries: number;
  /** Zone-file lines Knot serves beside the product's export: one A record per name. */
  readonly knotRecords: string;
  /** Creates the pools and load balancers in the product's zone through the API. */
  setup(call: ApiCall, token: string, zoneId: number): Promise<void>;
  /** A query the product answers from a load balancer once it serves them (readiness probe). */
  readonly probe: Buffer;
}

/** Writes the query file to `file` and describes the configuration on both sides. */
export async function prepareSteered(file: string, origin: string): Promise<SteeredWorkload> {
  const subnets = await findSubnets();
  const countries = [...new Set(subnets.map((s) => s.country))];
  const pairs: [number, Subnet][] = [];
  for (let i = 0; i < STEERED_NAMES; i++) for (const s of subnets) pairs.push([i, s]);
  // A fixed shuffle, so consecutive queries are neither the same name nor the same subnet.
  let x = 7;
  for (let k = pairs.length - 1; k > 0; k--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = x % (k + 1);
    [pairs[k], pairs[j]] = [pairs[j]!, pairs[k]!];
  }
  const chunks: Buffer[] = [];
  for (const [k, [i, s]] of pairs.entries()) {
    const q = steeredQuery(hostName(i, origin), s, k & 0xffff);
    chunks.push(Buffer.from([q.length >> 8, q.length & 255]), q);
  }
  writeFileSync(file, Buffer.concat(chunks));
  const knotRecords = Array.from(
    { length: STEERED_NAMES },
    (_, i) => `lb${i} ${TTL} IN A 45.0.${i % POOLS}.1`,
  ).join('\n');
  return {
    queryFile: file,
    queries: pairs.length,
    countries: countries.length,
    knotRecords: `${knotRecords}\n`,
    probe: steeredQuery(hostName(0, origin), subnets[0]!, 1),
    async setup(call, token, zoneId) {
      const poolIds: number[] = [];
      for (let p = 0; p < POOLS; p++) {
        const r = await call(
          'POST',
          `/dns/zones/${zoneId}/pools`,
          {
            name: `pool-${p}`,
            algorithm: 'failover',
            ttl: TTL,
            members: [
              { address: `45.0.${p}.1`, priority: 0, health_mode: 'none' },
              { address: `45.0.${p}.2`, priority: 1, health_mode: 'none' },
            ],
          },
          token,
        );
        if (r.status !== 201) throw new Error(`pool: ${r.status} ${r.text.slice(0, 300)}`);
        poolIds.push((JSON.parse(r.text) as { id: number }).id);
      }
      const regions = [...new Set(countries.map((c) => regionOfCountry(c)!))];
      for (let i = 0; i < STEERED_NAMES; i++) {
        // Half the countries have pools of their own (which half varies by name), the rest go by region.
        const countryPools: Record<string, number[]> = {};
        countries.forEach((c, j) => {
          if ((i + j) % 2 === 0) countryPools[c] = [poolIds[j % POOLS]!, poolIds[(j + 1) % POOLS]!];
        });
        const regionPools: Record<string, number[]> = {};
        regions.forEach((r, j) => (regionPools[r] = [poolIds[(i + j) % POOLS]!]));
        const r = await call(
          'POST',
          `/dns/zones/${zoneId}/load-balancers`,
          {
            hostname: hostName(i, origin),
            ttl: TTL,
            steering_policy: 'geo',
            location_strategy: 'resolver_ip',
            default_pools: [poolIds[i % POOLS]!],
            country_pools: countryPools,
            region_pools: regionPools,
          },
          token,
        );
        if (r.status !== 201) throw new Error(`load balancer: ${r.status} ${r.text.slice(0, 300)}`);
      }
    },
  };
}
