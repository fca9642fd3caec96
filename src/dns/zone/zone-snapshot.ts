import type { ZoneData, ZoneRecordData } from './zone-data.ts';
import type { ZoneDnssec } from '../dnssec/dnssec-config.ts';
import type { CompiledSteering } from '../steering/steering-compiler.ts';
import { compileZoneSteering, loadBalancerOwners } from '../steering/steering-compiler.ts';
import type { WireName } from './wire-name.ts';
import { readRdataName, wireNameFromText } from './wire-name.ts';
import {
  CLASS_IN,
  TYPE_A,
  TYPE_AAAA,
  TYPE_CNAME,
  TYPE_DNAME,
  TYPE_MB,
  TYPE_MD,
  TYPE_MF,
  TYPE_MG,
  TYPE_MINFO,
  TYPE_MR,
  TYPE_MX,
  TYPE_NS,
  TYPE_PTR,
  TYPE_SOA,
  TYPE_SRV,
} from '../message/message-constants.ts';

/** One RR after its owner name, pre-encoded for the response writer. */
export interface RecordBody {
  /** TYPE, CLASS, TTL, RDLENGTH and RDATA, ready to copy, when RDATA holds no compressible name. */
  readonly flat: Uint8Array | null;
  /** TYPE, CLASS, TTL (8 bytes) when `segments` is used. */
  readonly head: Uint8Array;
  /** RDATA split into raw bytes and names that may be compressed (RFC 3597 §4 types only). */
  readonly segments: readonly (Uint8Array | WireName)[] | null;
  /**
   * An uncompressed name inside `flat` (SRV target) and its offset there: the writer records it as a
   * compression target, so an additional record owned by that name points at it, as Knot's
   * compression hint does (visible as letter case when the question was 0x20-mixed).
   */
  readonly hint: { readonly name: WireName; readonly offset: number } | null;
}

export interface AdditionalEntry {
  readonly owner: WireName;
  readonly rrset: RRset;
  /**
   * Mandatory glue: an address of a delegation's name server at or below the cut. In a referral it
   * must fit or the response is truncated (RFC 1034 §4.3.2 step 3b; Knot 3.2 sets TC). Any other
   * additional data is dropped silently when it does not fit (RFC 2181 §9).
   */
  readonly glue: boolean;
}

export interface RRset {
  readonly type: number;
  /** RFC 2181 §5.2: one TTL per RRset; when the records disagree the smallest is used. */
  readonly ttl: number;
  readonly rrs: readonly RecordBody[];
  /** Raw RDATA of each record (uncompressed wire). */
  readonly rdatas: readonly Uint8Array[];
  /** CNAME/DNAME target (first record) or null. */
  readonly target: WireName | null;
  /** In-zone A/AAAA RRsets of NS/MX/SRV targets (RFC 1034 §4.3.2 step 6); filled at build time. */
  readonly additional: readonly AdditionalEntry[];
}

export interface ZoneNode {
  readonly name: WireName;
  readonly rrsets: ReadonlyMap<number, RRset>;
  /** RRset with the lowest type code: the RFC 8482 answer to ANY, as Knot chooses it. */
  readonly lowest: RRset | null;
  /** NS present below the apex: a zone cut (RFC 1034 §4.2.1). */
  readonly delegation: boolean;
}

export interface ZoneSnapshot {
  readonly id: number;
  /** Stored form of the apex ("example.com"). */
  readonly domain: string;
  readonly serial: number;
  readonly apex: WireName;
  readonly apexKey: string;
  readonly apexLabels: number;
  /** Every existing name, empty non-terminals included, by canonical key (see WireName). */
  readonly nodes: ReadonlyMap<string, ZoneNode>;
  readonly hasWildcards: boolean;
  readonly soa: RRset | null;
  /** SOA for negative answers: TTL = min(SOA TTL, SOA MINIMUM) (RFC 2308 §3). */
  readonly negativeSoa: RRset | null;
  /** Records skipped at build time (owner outside the zone or malformed RDATA). */
  readonly skipped: number;
  /** Enabled load balancers by owner key: A/AAAA at these names are steered (absent = none). */
  readonly steering?: CompiledSteering | null;
  /** Signing material when the zone is signed (ZoneData.dnssec): answers to DO queries get signed. */
  readonly dnssec?: ZoneDnssec | null;
}

/** SRV RDATA: PRIORITY, WEIGHT, PORT, then TARGET (RFC 2782). */
const SRV_TARGET_OFFSET = 6;

/** Types whose RDATA names may be compressed (RFC 3597 §4); SRV, SVCB, DNAME etc. never are. */
const COMPRESSIBLE = new Set([
  TYPE_NS,
  TYPE_MD,
  TYPE_MF,
  TYPE_CNAME,
  TYPE_SOA,
  TYPE_MB,
  TYPE_MG,
  TYPE_MR,
  TYPE_PTR,
  TYPE_MINFO,
  TYPE_MX,
]);

/** Splits RDATA into raw and name segments, validating embedded names. */
function rdataSegments(type: number, rdata: Uint8Array): (Uint8Array | WireName)[] {
  switch (type) {
    case TYPE_NS:
    case TYPE_MD:
    case TYPE_MF:
    case TYPE_CNAME:
    case TYPE_MB:
    case TYPE_MG:
    case TYPE_MR:
    case TYPE_PTR: {
      const { name, end } = readRdataName(rdata, 0);
      if (end !== rdata.length) throw new Error('trailing bytes');
      return [name];
    }
    case TYPE_MINFO:
    case TYPE_SOA: {
      const a = readRdataName(rdata, 0);
      const b = readRdataName(rdata, a.end);
      const rest = rdata.subarray(b.end);
      if (rest.length !== (type === TYPE_SOA ? 20 : 0)) throw new Error('bad fixed part');
      return type === TYPE_SOA ? [a.name, b.name, rest] : [a.name, b.name];
    }
    case TYPE_MX: {
      if (rdata.length < 3) throw new Error('short MX');
      const { name, end } = readRdataName(rdata, 2);
      if (end !== rdata.length) throw new Error('trailing bytes');
      return [rdata.subarray(0, 2), name];
    }
    default:
      return [rdata];
  }
}

/** Name whose A/AAAA go to the additional section, or the CNAME/DNAME target (validated). */
function rdataTarget(type: number, rdata: Uint8Array): WireName | null {
  switch (type) {
    case TYPE_NS:
    case TYPE_CNAME:
    case TYPE_DNAME:
      return readRdataName(rdata, 0).name;
    case TYPE_MX:
      return readRdataName(rdata, 2).name;
    case TYPE_SRV:
      return readRdataName(rdata, SRV_TARGET_OFFSET).name;
    default:
      return null;
  }
}

function head(type: number, ttl: number): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeUInt16BE(type, 0);
  b.writeUInt16BE(CLASS_IN, 2);
  b.writeUInt32BE(ttl >>> 0, 4);
  return b;
}

function encodeBody(type: number, ttl: number, rdata: Uint8Array): RecordBody {
  const h = head(type, ttl);
  if (COMPRESSIBLE.has(type)) {
    return { flat: null, head: h, segments: rdataSegments(type, rdata), hint: null };
  }
  const flat = Buffer.alloc(10 + rdata.length);
  flat.set(h, 0);
  flat.writeUInt16BE(rdata.length, 8);
  flat.set(rdata, 10);
  const hint =
    type === TYPE_SRV
      ? { name: readRdataName(rdata, SRV_TARGET_OFFSET).name, offset: 10 + SRV_TARGET_OFFSET }
      : null;
  return { flat, head: h, segments: null, hint };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

interface MutableRRset {
  type: number;
  ttl: number;
  rdatas: Uint8Array[];
  targets: WireName[];
}

function buildRRset(
  m: MutableRRset,
  ttlOverride?: number,
): RRset & { additional: AdditionalEntry[]; targets: WireName[] } {
  const ttl = ttlOverride ?? m.ttl;
  return {
    type: m.type,
    ttl,
    rrs: m.rdatas.map((r) => encodeBody(m.type, ttl, r)),
    rdatas: m.rdatas,
    target: m.type === TYPE_CNAME || m.type === TYPE_DNAME ? (m.targets[0] ?? null) : null,
    additional: [],
    targets: m.targets,
  };
}

/** True when the name with key `key` is `cut` or below it (keys are suffix-comparable). */
function atOrBelow(key: string, cut: string): boolean {
  return (
    key.length >= cut.length && key.endsWith(cut) && (key.length === cut.length || isLabelStart(key, cut))
  );
}

/** `key` ends with `cut` on a label boundary (not inside a label of `key`). */
function isLabelStart(key: string, cut: string): boolean {
  let p = 0;
  const start = key.length - cut.length;
  while (p < start) p += key.charCodeAt(p) + 1;
  return p === start;
}

/**
 * Additional-section data (RFC 1034 §4.3.2 step 6) for NS/MX/SRV targets that exist in this zone;
 * `cut` is the key of the delegation owning `rs` (NS at a cut), for which in-bailiwick targets are glue.
 */
function addAdditional(
  nodes: ReadonlyMap<string, ZoneNode>,
  rs: RRset & { additional: AdditionalEntry[]; targets: WireName[] },
  cut: string | null,
): void {
  for (const t of rs.targets) {
    const tkey = t.keys[0] ?? '';
    const node = nodes.get(tkey);
    if (!node) continue;
    const glue = cut !== null && atOrBelow(tkey, cut);
    for (const type of [TYPE_A, TYPE_AAAA]) {
      const extra = node.rrsets.get(type);
      if (extra && !rs.additional.some((e) => e.rrset === extra))
        rs.additional.push({ owner: node.name, rrset: extra, glue });
    }
  }
}

/** Builds the immutable compiled view of one zone. Throws only when the apex name itself is invalid. */
export function buildZoneSnapshot(zone: ZoneData): ZoneSnapshot {
  const apex = wireNameFromText(zone.domain);
  const apexKey = apex.keys[0] ?? '';
  const apexLabels = apex.keys.length;
  const byName = new Map<string, { name: WireName; sets: Map<number, MutableRRset> }>();
  let skipped = 0;

  const add = (rec: ZoneRecordData): void => {
    const name = wireNameFromText(rec.name);
    const key = name.keys[0] ?? '';
    const depth = name.keys.length - apexLabels;
    if (depth < 0 || (name.keys[depth] ?? '') !== apexKey) throw new Error('owner outside zone');
    if (rec.type === 41) throw new Error('OPT is not zone data');
    const target = rdataTarget(rec.type, rec.rdata);
    if (COMPRESSIBLE.has(rec.type)) rdataSegments(rec.type, rec.rdata);
    let entry = byName.get(key);
    if (!entry) byName.set(key, (entry = { name, sets: new Map() }));
    let set = entry.sets.get(rec.type);
    if (!set) entry.sets.set(rec.type, (set = { type: rec.type, ttl: rec.ttl, rdatas: [], targets: [] }));
    set.ttl = Math.min(set.ttl, rec.ttl);
    if (set.rdatas.some((r) => sameBytes(r, rec.rdata))) return;
    set.rdatas.push(rec.rdata);
    if (target) set.targets.push(target);
  };
  for (const rec of zone.records) {
    try {
      add(rec);
    } catch {
      skipped++;
    }
  }

  // A load balancer hostname exists even without records of its own: other types there are NODATA.
  for (const owner of loadBalancerOwners(zone.steering, apex)) {
    const key = owner.keys[0] ?? '';
    if (!byName.has(key)) byName.set(key, { name: owner, sets: new Map() });
  }

  // Empty non-terminals: every ancestor between an owner and the apex exists (RFC 4592 §2.2.2).
  for (const { name } of [...byName.values()]) {
    for (let i = 1; i < name.keys.length - apexLabels; i++) {
      const k = name.keys[i]!;
      if (!byName.has(k)) {
        const wire = name.wire.subarray(name.offsets[i]!);
        byName.set(k, {
          name: {
            wire,
            keys: name.keys.slice(i),
            offsets: name.offsets.slice(i).map((o) => o - name.offsets[i]!),
          },
          sets: new Map(),
        });
      }
    }
  }
  if (!byName.has(apexKey)) byName.set(apexKey, { name: apex, sets: new Map() });

  const nodes = new Map<string, ZoneNode>();
  const allSets: Array<{ key: string; rs: ReturnType<typeof buildRRset> }> = [];
  let hasWildcards = false;
  for (const [key, { name, sets }] of byName) {
    const rrsets = new Map<number, RRset>();
    let lowest: RRset | null = null;
    for (const m of [...sets.values()].sort((a, b) => a.type - b.type)) {
      const rs = buildRRset(m);
      allSets.push({ key, rs });
      rrsets.set(m.type, rs);
      lowest ??= rs;
    }
    if (key.charCodeAt(0) === 1 && key.charCodeAt(1) === 0x2a) hasWildcards = true;
    nodes.set(key, { name, rrsets, lowest, delegation: key !== apexKey && rrsets.has(TYPE_NS) });
  }

  // Additional-section data for NS/MX/SRV targets that exist in this zone, glue included.
  for (const { key, rs } of allSets) {
    if (rs.type !== TYPE_NS && rs.type !== TYPE_MX && rs.type !== TYPE_SRV) continue;
    addAdditional(nodes, rs, rs.type === TYPE_NS && nodes.get(key)!.delegation ? key : null);
  }

  const soaMut = byName.get(apexKey)?.sets.get(TYPE_SOA);
  const soa = nodes.get(apexKey)?.rrsets.get(TYPE_SOA) ?? null;
  let negativeSoa: RRset | null = null;
  if (soaMut && soa) {
    const rd = soaMut.rdatas[0]!;
    const minimum = Buffer.from(rd.buffer, rd.byteOffset, rd.length).readUInt32BE(rd.length - 4);
    negativeSoa = buildRRset({ ...soaMut, rdatas: [rd] }, Math.min(soa.ttl, minimum));
  }

  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    apex,
    apexKey,
    apexLabels,
    nodes,
    hasWildcards,
    soa,
    negativeSoa,
    skipped,
    steering: compileZoneSteering(zone.steering, apex, negativeSoa),
    dnssec: zone.dnssec ?? null,
  };
}
