import { ipv4ToBytes, ipv6ToBytes } from '../../net/ip-address-text.ts';
import type { QueryName } from '../wire/message/query-name.ts';
import { nameKeyHash } from '../wire/name-key-hash.ts';
import type { WireName } from '../wire/wire-name.ts';
import { wireNameFromText } from '../wire/wire-name.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import { encodeRRset } from '../wire/rrset-encoding.ts';
import type { SteeringLoadBalancer, SteeringMember, SteeringPool, ZoneSteering } from './steering-config.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { defineZoneExtension } from '../zone/zone-extension.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';

/**
 * A zone's steering configuration compiled for the DNS path at snapshot build time: every answer a
 * steered query can produce is an RRset encoded here, so answering copies bytes.
 */
export interface CompiledLoadBalancer {
  readonly lb: SteeringLoadBalancer;
  readonly owner: WireName;
  readonly poolsById: ReadonlyMap<number, SteeringPool>;
  /** One-record A or AAAA RRset per member (TTL = the load balancer's ttl), by member id. */
  readonly memberRRsets: ReadonlyMap<number, RRset>;
  /** serve_last answers: every enabled member of one family of a pool; key poolId * 2 + (family === 6). */
  readonly poolRRsets: ReadonlyMap<number, RRset>;
  /** The zone's negative SOA with TTL capped at the load balancer's ttl (NODATA for no_members). */
  readonly negativeSoa: RRset | null;
}

/**
 * Enabled load balancers by canonical name key (WireName.keys[0]), and by the hash of that key
 * (wire/name-key-hash.ts), which the query parser computes from the query name's wire bytes: a
 * query finds its load balancer with one integer probe and a byte comparison, no key string.
 */
export interface CompiledSteering extends ReadonlyMap<string, CompiledLoadBalancer> {
  readonly byHash: ReadonlyMap<number, readonly CompiledLoadBalancer[]>;
}

/** Name-key hashes as small integers (Map keys that stay unboxed). */
const smiHash = (hash: number): number => hash & 0x3fffffff;

/** The load balancer at the query's name, compared on the lower-cased wire bytes; undefined: none. */
export function loadBalancerOfQuery(
  lbs: CompiledSteering,
  name: QueryName,
): CompiledLoadBalancer | undefined {
  const candidates = lbs.byHash.get(smiHash(name.hash));
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    if (name.equalsKey(0, c.owner.keys[0] ?? '')) return c;
  }
  return undefined;
}

export function poolRRsetKey(poolId: number, family: 4 | 6): number {
  return poolId * 2 + (family === 6 ? 1 : 0);
}

function addressRdata(m: SteeringMember): Uint8Array | null {
  return m.family === 4 ? ipv4ToBytes(m.address) : ipv6ToBytes(m.address);
}

function addressRRset(type: number, ttl: number, rdatas: Uint8Array[]): RRset {
  return encodeRRset(type, ttl, rdatas, []);
}

/** The negative SOA again with a lower TTL; its RDATA names are shared. */
function cappedSoa(soa: RRset | null, ttl: number): RRset | null {
  if (soa === null || soa.ttl <= ttl) return soa;
  return encodeRRset(soa.type, ttl, soa.rdatas, soa.names);
}

/** True when `key` is the apex key or a name below it (keys are suffix-comparable on label bounds). */
function inZone(owner: WireName, apexLabels: number, apexKey: string): boolean {
  const depth = owner.keys.length - apexLabels;
  return depth >= 0 && (owner.keys[depth] ?? '') === apexKey;
}

/**
 * Compiles the enabled load balancers of a zone whose hostnames are in the zone; members with an
 * unparsable address are left out of the answers (the control plane validates them first).
 */
export function compileZoneSteering(
  steering: ZoneSteering | undefined,
  apex: WireName,
  negativeSoa: RRset | null,
): CompiledSteering | null {
  if (!steering || steering.loadBalancers.length === 0) return null;
  const apexKey = apex.keys[0] ?? '';
  const apexLabels = apex.keys.length;
  const poolsById = new Map(steering.pools.map((p) => [p.id, p]));
  const out = new Map<string, CompiledLoadBalancer>();
  for (const lb of steering.loadBalancers) {
    if (!lb.enabled) continue;
    let owner: WireName;
    try {
      owner = wireNameFromText(lb.hostname);
    } catch {
      continue;
    }
    if (!inZone(owner, apexLabels, apexKey)) continue;
    const lbMembers = new Map<number, RRset>();
    const poolRRsets = new Map<number, RRset>();
    for (const pool of poolsById.values()) {
      const byFamily: Record<4 | 6, Uint8Array[]> = { 4: [], 6: [] };
      for (const m of pool.members) {
        const rdata = addressRdata(m);
        if (rdata === null) continue;
        lbMembers.set(m.id, addressRRset(m.family === 4 ? RR_TYPE.A : RR_TYPE.AAAA, lb.ttl, [rdata]));
        if (m.enabled) byFamily[m.family].push(rdata);
      }
      if (byFamily[4].length > 0)
        poolRRsets.set(poolRRsetKey(pool.id, 4), addressRRset(RR_TYPE.A, lb.ttl, byFamily[4]));
      if (byFamily[6].length > 0)
        poolRRsets.set(poolRRsetKey(pool.id, 6), addressRRset(RR_TYPE.AAAA, lb.ttl, byFamily[6]));
    }
    out.set(owner.keys[0] ?? '', {
      lb,
      owner,
      poolsById,
      memberRRsets: lbMembers,
      poolRRsets,
      negativeSoa: cappedSoa(negativeSoa, lb.ttl),
    });
  }
  if (out.size === 0) return null;
  const byHash = new Map<number, CompiledLoadBalancer[]>();
  for (const [key, lb] of out) {
    const h = smiHash(nameKeyHash(key));
    byHash.set(h, [...(byHash.get(h) ?? []), lb]);
  }
  return Object.assign(out, { byHash });
}

/**
 * Owner names of the load balancers compileZoneSteering will serve (enabled, inside the zone): the
 * snapshot makes them exist, so other types at a hostname without records are NODATA, not NXDOMAIN.
 */
export function loadBalancerOwners(steering: ZoneSteering | undefined, apex: WireName): WireName[] {
  if (!steering) return [];
  const apexKey = apex.keys[0] ?? '';
  const out: WireName[] = [];
  for (const lb of steering.loadBalancers) {
    if (!lb.enabled) continue;
    try {
      const owner = wireNameFromText(lb.hostname);
      if (inZone(owner, apex.keys.length, apexKey)) out.push(owner);
    } catch {
      // An invalid hostname is skipped, as compileZoneSteering does.
    }
  }
  return out;
}

/**
 * Steering on the snapshot (zone-extension.ts): the load balancers compiled against the snapshot's
 * apex and negative SOA, and their hostnames as names that exist without records.
 */
export const STEERING_EXTENSION = defineZoneExtension<CompiledSteering>({
  name: 'steering',
  compile: (zone, snapshot) => compileZoneSteering(zone.steering, snapshot.apex, snapshot.negativeSoa),
  existingNames: (zone, apex) => loadBalancerOwners(zone.steering, apex),
});

const SLOT = STEERING_EXTENSION.slot;

/** The zone's enabled load balancers by owner key (null: none): one slot read per A/AAAA query. */
export function compiledSteering(zone: ZoneSnapshot): CompiledSteering | null {
  return zone.extensions[SLOT] as CompiledSteering | null;
}
