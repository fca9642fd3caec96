/**
 * Builds a ZoneSnapshot from ZoneData: names interned once into the zone's byte arena, RRsets
 * encoded per owner, empty non-terminals, additional data, the negative SOA, then the extensions
 * of the features above this floor (zone-extension.ts).
 */
import { ByteArena } from '../wire/byte-arena.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import { encodeRRset, rdataNames } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { WireName, isWildcardKey, labelOffset, sameSpelling, wireNameFromText } from '../wire/wire-name.ts';
import { NameTable } from './name-table.ts';
import type { ZoneData, ZoneRecordData } from './zone-data.ts';
import { extensionNames, zoneExtensions } from './zone-extension.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { NO_RRSETS, ZoneNode, additionalFor, hasAdditional, isDuplicate } from './zone-snapshot.ts';
import { NodeTable } from './node-table.ts';
import { PackedNodeTable } from './packed-node-table.ts';
import { PACKED_ZONE_RECORDS, packRecords } from './packed-records.ts';

const isNs = (rs: RRset): boolean => rs.type === RR_TYPE.NS;

/**
 * The zone's valid records, each as its owner's index in `owners` (-1: skipped) and its RDATA
 * names (rdataNames, interned) at [nameAt[i], nameAt[i + 1]) of `names`. Per-record state lives in
 * typed arrays and two flat arrays, not in an object per record or per RRset: those would outlive
 * many collections and, freed at the end, leave the old-space pages of the snapshot half empty.
 */
interface RecordIndex {
  readonly owners: WireName[];
  readonly recordOwner: Int32Array;
  readonly names: WireName[];
  readonly nameAt: Int32Array;
  readonly skipped: number;
}

function indexRecords(zone: ZoneData, apex: WireName, table: NameTable): RecordIndex {
  const apexKey = apex.keys[0] ?? '';
  const apexLabels = apex.keys.length;
  const records = zone.records;
  // By the interned names' `keys` arrays: the table shares one per canonical key (every spelling),
  // and an identity lookup hashes and compares no string.
  const ids = new Map<readonly string[], number>();
  const owners: WireName[] = [];
  const ownerId = (name: WireName): number => {
    let id = ids.get(name.keys);
    if (id === undefined) {
      id = owners.length;
      ids.set(name.keys, id);
      owners.push(name);
    }
    return id;
  };
  const recordOwner = new Int32Array(records.length);
  const nameAt = new Int32Array(records.length + 1);
  const names: WireName[] = [];
  let skipped = 0;
  // Records of one name usually come together: parse its text once.
  let lastText: string | null = null;
  let lastName: WireName = apex;

  const add = (rec: ZoneRecordData): number => {
    const parsed = rec.name === lastText ? lastName : wireNameFromText(rec.name);
    const depth = parsed.keys.length - apexLabels;
    if (depth < 0 || (parsed.keys[depth] ?? '') !== apexKey) throw new Error('owner outside zone');
    if (rec.type === RR_TYPE.OPT) throw new Error('OPT is not zone data');
    const found = rdataNames(rec.type, rec.rdata);
    const name = rec.name === lastText ? lastName : table.intern(parsed);
    lastText = rec.name;
    lastName = name;
    for (const n of found) names.push(table.intern(n));
    return ownerId(name);
  };
  for (let i = 0; i < records.length; i++) {
    nameAt[i] = names.length;
    try {
      recordOwner[i] = add(records[i]!);
    } catch {
      recordOwner[i] = -1;
      skipped++;
    }
  }
  nameAt[records.length] = names.length;

  // A load balancer hostname exists even without records of its own: other types there are NODATA.
  for (const owner of extensionNames(zone, apex)) {
    ownerId(table.intern(owner));
  }
  // Empty non-terminals: every ancestor between an owner and the apex exists (RFC 4592 §2.2.2).
  // The table holds each ancestor already; the spelling is the first owner's that has it.
  const count = owners.length;
  for (let id = 0; id < count; id++) {
    const name = owners[id]!;
    for (let i = 1; i < name.keys.length - apexLabels; i++) {
      const known = table.get(name.keys[i]!)!;
      if (ids.has(known.keys)) continue;
      const suffix = new WireName(known.keys, name.bytes, name.at + labelOffset(name, i));
      ownerId(sameSpelling(known, suffix) ? known : suffix);
    }
  }
  ownerId(apex);
  return { owners, recordOwner, names, nameAt, skipped };
}

/** Record indexes grouped by owner (counting sort, input order kept): owner o has [at[o], at[o + 1]). */
function groupByOwner(index: RecordIndex): { order: Int32Array; at: Int32Array } {
  const { owners, recordOwner } = index;
  const at = new Int32Array(owners.length + 1);
  for (const o of recordOwner) if (o >= 0) at[o + 1]!++;
  for (let o = 0; o < owners.length; o++) at[o + 1]! += at[o]!;
  const fill = at.slice(0, owners.length);
  const order = new Int32Array(at[owners.length]!);
  for (let i = 0; i < recordOwner.length; i++) {
    const o = recordOwner[i]!;
    if (o >= 0) order[fill[o]!++] = i;
  }
  return { order, at };
}

/**
 * Builds the immutable compiled view of one zone: packed (buildPackedSnapshot) when it is given
 * packed or has PACKED_ZONE_RECORDS records or more, whole otherwise. Throws only when the apex
 * name itself is invalid.
 */
export function buildZoneSnapshot(zone: ZoneData): ZoneSnapshot {
  if (zone.packed !== undefined || zone.records.length >= PACKED_ZONE_RECORDS)
    return buildPackedSnapshot(zone);
  return buildWholeSnapshot(zone);
}

/** The snapshot with every name's node made at once (any size; benchmarks compare both). */
export function buildWholeSnapshot(zone: ZoneData): ZoneSnapshot {
  const arena = new ByteArena();
  const table = new NameTable(arena);
  const apex = table.intern(wireNameFromText(zone.domain));
  const apexKey = apex.keys[0] ?? '';
  const index = indexRecords(zone, apex, table);
  const { order, at } = groupByOwner(index);
  const records = zone.records;
  const nodes = new NodeTable();
  let hasWildcards = false;
  let soaFirst = -1;
  const byType = (a: number, b: number): number => records[a]!.type - records[b]!.type;
  for (let o = 0; o < index.owners.length; o++) {
    const name = index.owners[o]!;
    const key = name.keys[0] ?? '';
    // Stable: records of one type stay in input order (the first of duplicates is kept).
    const recs =
      at[o + 1]! - at[o]! === 1
        ? order.subarray(at[o]!, at[o + 1]!)
        : Array.from(order.subarray(at[o]!, at[o + 1]!)).sort(byType);
    const rrsets: RRset[] = [];
    for (let g = 0; g < recs.length;) {
      const type = records[recs[g]!]!.type;
      let ttl = Infinity;
      const rdatas: Uint8Array[] = [];
      const names: WireName[] = [];
      for (; g < recs.length && records[recs[g]!]!.type === type; g++) {
        const i = recs[g]!;
        const rec = records[i]!;
        ttl = Math.min(ttl, rec.ttl);
        if (rdatas.length > 0 && isDuplicate(rdatas, rec.rdata)) continue;
        rdatas.push(rec.rdata);
        for (let n = index.nameAt[i]!; n < index.nameAt[i + 1]!; n++) names.push(index.names[n]!);
        if (type === RR_TYPE.SOA && key === apexKey && soaFirst < 0) soaFirst = i;
      }
      rrsets.push(encodeRRset(type, ttl, rdatas, names, arena));
    }
    if (isWildcardKey(key)) hasWildcards = true;
    const delegation = key !== apexKey && rrsets.some(isNs);
    nodes.set(key, new ZoneNode(name, rrsets.length === 0 ? NO_RRSETS : rrsets.slice(), delegation));
  }

  // Additional-section data for NS/MX/SRV targets that exist in this zone, glue included.
  for (const [key, node] of nodes) {
    for (let i = 0; i < node.rrsetCount; i++) {
      const rs = node.rrsetAt(i);
      if (!hasAdditional(rs.type)) continue;
      const additional = additionalFor(nodes, rs, rs.type === RR_TYPE.NS && node.delegation ? key : null);
      if (additional.length > 0) rs.additional = additional;
    }
  }

  const soa = nodes.get(apexKey)?.rrset(RR_TYPE.SOA) ?? null;
  let negativeSoa: RRset | null = null;
  if (soa && soaFirst >= 0) {
    const rd = records[soaFirst]!.rdata;
    const minimum = Buffer.from(rd.buffer, rd.byteOffset, rd.length).readUInt32BE(rd.length - 4);
    const names = index.names.slice(index.nameAt[soaFirst]!, index.nameAt[soaFirst + 1]!);
    negativeSoa = encodeRRset(RR_TYPE.SOA, Math.min(soa.ttl, minimum), [rd], names, arena);
  }
  return withExtensions(zone, { apex, nodes, hasWildcards, soa, negativeSoa, skipped: index.skipped });
}

/** What a build found, before the features' extensions are compiled over it. */
interface BuiltZone {
  readonly apex: WireName;
  readonly nodes: ReadonlyMap<string, ZoneNode>;
  readonly hasWildcards: boolean;
  readonly soa: RRset | null;
  readonly negativeSoa: RRset | null;
  readonly skipped: number;
}

function withExtensions(zone: ZoneData, built: BuiltZone): ZoneSnapshot {
  const extensions: unknown[] = [];
  const snapshot: ZoneSnapshot = {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    apexKey: built.apex.keys[0] ?? '',
    apexLabels: built.apex.keys.length,
    ...built,
    extensions,
  };
  // In slot order, so the array stays packed (one element kind, no holes).
  for (const ext of zoneExtensions()) extensions.push(ext.compile(zone, snapshot));
  return snapshot;
}

/**
 * A large zone's snapshot over its packed records (packed-node-table.ts): the names indexed, the
 * apex made; every other node is made when first asked. Records given as objects are packed first.
 */
function buildPackedSnapshot(zone: ZoneData): ZoneSnapshot {
  const packed = zone.packed ?? packRecords(zone.records);
  const parsedApex = wireNameFromText(zone.domain);
  const nodes = new PackedNodeTable(packed, parsedApex, extensionNames(zone, parsedApex));
  const apex = nodes.get(parsedApex.keys[0] ?? '')!;
  const soa = apex.rrset(RR_TYPE.SOA) ?? null;
  let negativeSoa: RRset | null = null;
  if (soa) {
    const rd = soa.rdatas[0]!;
    const minimum = Buffer.from(rd.buffer, rd.byteOffset, rd.length).readUInt32BE(rd.length - 4);
    negativeSoa = encodeRRset(RR_TYPE.SOA, Math.min(soa.ttl, minimum), [rd]);
  }
  const hasWildcards = nodes.index.wildcards > 0;
  return withExtensions(zone, { apex, nodes, hasWildcards, soa, negativeSoa, skipped: nodes.index.skipped });
}
