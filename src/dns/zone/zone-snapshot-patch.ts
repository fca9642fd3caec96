/**
 * A change to a few names applied to a served snapshot without rebuilding the zone. The names whose
 * records changed, and the apex (its SOA carries the new serial), are built anew from the new
 * ZoneData; what a change at a name can affect elsewhere is redone: empty non-terminals above it
 * (new or gone, RFC 4592 §2.2.2), the additional-section data of NS/MX/SRV RRsets that point at it,
 * the wildcard flag, the negative SOA and the extensions compiled against it (steering). The result
 * answers as buildZoneSnapshot(zone) would (zone-snapshot-patch.test.ts compares them over random
 * change sequences).
 *
 * Cost: the work is proportional to the change, not to the zone. A copy of the node map alone takes
 * ~0.4 s at 666,000 names, so the patch takes the previous snapshot's map over and changes it in
 * place, keeping beside it (by map identity) what finding the affected names needs: each name's
 * number of child names and the owners of RDATA names that point at it. The previous snapshot must
 * not be used afterwards: ZoneStore.patch swaps it out in the same synchronous call.
 */
import type { ZoneData } from './zone-data.ts';
import { RRset } from '../wire/rrset-encoding.ts';
import { isWildcardKey, keyOfText, parentKey } from '../wire/wire-name.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { additionalFor, hasAdditional, NO_RRSETS, ZoneNode } from './zone-snapshot.ts';
import { buildZoneSnapshot } from './zone-snapshot-builder.ts';
import { PackedNodeTable } from './packed-node-table.ts';
import { extensionNames, followsPatches } from './zone-extension.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

/** What a patch needs to find the names a change affects, kept per node map. */
interface PatchIndex {
  /** Child names (nodes one label below) of each name with any. */
  readonly children: Map<string, number>;
  /**
   * Owners of NS/MX/SRV RRsets by the key of each name in their RDATA: one owner as itself (the
   * usual case; a Set per name would dominate the index's cost), several as a Set.
   */
  readonly referrers: Map<string, string | Set<string>>;
  wildcards: number;
}

const indexes = new WeakMap<ReadonlyMap<string, ZoneNode>, PatchIndex>();

function addReferrers(ix: PatchIndex, key: string, node: ZoneNode): void {
  for (let i = 0; i < node.rrsetCount; i++) {
    const rs = node.rrsetAt(i);
    if (!hasAdditional(rs.type)) continue;
    for (const n of rs.names) addReferrer(ix, n.keys[0] ?? '', key);
  }
}

function addReferrer(ix: PatchIndex, target: string, key: string): void {
  const owners = ix.referrers.get(target);
  if (owners === undefined) ix.referrers.set(target, key);
  else if (typeof owners !== 'string') owners.add(key);
  else if (owners !== key) ix.referrers.set(target, new Set([owners, key]));
}

function removeReferrers(ix: PatchIndex, key: string, node: ZoneNode): void {
  for (let i = 0; i < node.rrsetCount; i++) {
    const rs = node.rrsetAt(i);
    if (!hasAdditional(rs.type)) continue;
    for (const n of rs.names) {
      const target = n.keys[0] ?? '';
      const owners = ix.referrers.get(target);
      if (owners === key) ix.referrers.delete(target);
      else if (owners !== undefined && typeof owners !== 'string') {
        owners.delete(key);
        if (owners.size === 0) ix.referrers.delete(target);
      }
    }
  }
}

/** A node map's index being built a slice at a time (preparePatchingSlice): the names not yet visited. */
interface PartialIndex {
  readonly ix: PatchIndex;
  readonly rest: Iterator<[string, ZoneNode]>;
  /** A packed map's names not yet visited (its patched nodes are in `rest`). */
  readonly packed: Iterator<number> | null;
}

const building = new WeakMap<ReadonlyMap<string, ZoneNode>, PartialIndex>();

function indexName(ix: PatchIndex, apexKey: string, key: string, node: ZoneNode): void {
  if (key !== apexKey) {
    const p = parentKey(key);
    ix.children.set(p, (ix.children.get(p) ?? 0) + 1);
  }
  if (isWildcardKey(key)) ix.wildcards++;
  addReferrers(ix, key, node);
}

/**
 * indexName for a packed name (packed-node-table.ts), read from its packed records without
 * making its node: its child count is the packed index's, its RDATA names read from the bytes.
 */
function indexPackedName(ix: PatchIndex, nodes: PackedNodeTable, id: number): void {
  const key = nodes.index.keyOf(id);
  const children = nodes.index.childCount(id);
  if (children > 0) ix.children.set(key, (ix.children.get(key) ?? 0) + children);
  if (isWildcardKey(key)) ix.wildcards++;
  for (const target of nodes.additionalTargets(id)) addReferrer(ix, target, key);
}

/** Visits up to `limit` more names of the map's index; true when every name was visited. */
function extendIndex(nodes: ReadonlyMap<string, ZoneNode>, apexKey: string, limit: number): boolean {
  let partial = building.get(nodes);
  if (partial === undefined) {
    const packed = nodes instanceof PackedNodeTable;
    partial = {
      ix: { children: new Map(), referrers: new Map(), wildcards: 0 },
      rest: packed ? nodes.overlayEntries() : nodes.entries(),
      packed: packed ? nodes.packedIds() : null,
    };
    building.set(nodes, partial);
  }
  for (let n = 0; n < limit; n++) {
    const p = partial.packed?.next();
    if (p !== undefined && p.done !== true) {
      indexPackedName(partial.ix, nodes as PackedNodeTable, p.value);
      continue;
    }
    const e = partial.rest.next();
    if (e.done === true) {
      building.delete(nodes);
      indexes.set(nodes, partial.ix);
      return true;
    }
    indexName(partial.ix, apexKey, e.value[0], e.value[1]);
  }
  return false;
}

/**
 * The index of a node map: built on its first patch (one pass over the names), or finished then
 * when preparePatchingSlice began it. The map is not changed while the index is partial: every
 * change to it (a patch) finishes the index first.
 */
function indexOf(nodes: ReadonlyMap<string, ZoneNode>, apexKey: string): PatchIndex {
  const ix = indexes.get(nodes);
  if (ix !== undefined) return ix;
  extendIndex(nodes, apexKey, Infinity);
  return indexes.get(nodes)!;
}

/**
 * Where a patched snapshot comes from: an earlier snapshot of the same zone (same node map) and the
 * names whose nodes changed since, over every patch in between. What else was derived from a
 * snapshot (DNSSEC signing) can follow the same changes instead of starting over.
 */
export interface PatchOrigin {
  readonly base: ZoneSnapshot;
  readonly touched: ReadonlySet<string>;
}

/** Past this many names changed, following them costs more than starting over: no origin kept. */
export const MAX_ORIGIN_NAMES = 10_000;

const origins = new WeakMap<ZoneSnapshot, PatchOrigin>();

function recordOrigin(patched: ZoneSnapshot, old: ZoneSnapshot, touched: ReadonlySet<string>): void {
  // One link only: the chain's base and the names since, so no snapshot keeps a chain alive.
  const earlier = origins.get(old);
  origins.delete(old);
  const all = earlier === undefined ? touched : new Set([...earlier.touched, ...touched]);
  if (all.size <= MAX_ORIGIN_NAMES) origins.set(patched, { base: earlier?.base ?? old, touched: all });
}

/** How `snapshot` was patched from an earlier one, if it was (see PatchOrigin). */
export function patchOrigin(snapshot: ZoneSnapshot): PatchOrigin | undefined {
  return origins.get(snapshot);
}

/** Drops the origin once what depended on it has followed (the base can then be collected). */
export function forgetPatchOrigin(snapshot: ZoneSnapshot): void {
  origins.delete(snapshot);
}

/**
 * Builds a slice (up to `names` names) of what the first patch of `snapshot` would otherwise build
 * (see ZoneStore); true once it is complete.
 */
export function preparePatchingSlice(snapshot: ZoneSnapshot, names: number): boolean {
  return indexes.has(snapshot.nodes) || extendIndex(snapshot.nodes, snapshot.apexKey, names);
}

/**
 * The snapshot of `zone`, which differs from the zone of `old` only in the records owned by
 * `changedNames` (stored form, as ZoneRecordData names) and in its SOA. Takes over `old`'s node map
 * (see the file comment). Throws on a name that does not parse; the caller then builds the zone
 * whole.
 */
export function patchZoneSnapshot(
  old: ZoneSnapshot,
  zone: ZoneData,
  changedNames: readonly string[],
): ZoneSnapshot {
  const apexKey = old.apexKey;
  const texts = new Set<string>([...changedNames, zone.domain]);
  const changed = new Set<string>([...changedNames].map(keyOfText));
  changed.add(apexKey);
  // The changed names alone, built as a zone of their own: their nodes are the new ones.
  const sub = buildZoneSnapshot({ ...zone, records: zone.records.filter((r) => texts.has(r.name)) });
  // Names that exist without records (load balancers, zone-extension.ts).
  const extraNames = new Set(extensionNames(zone, sub.apex).map((o) => o.keys[0] ?? ''));
  // Taken over, not copied (see the file comment).
  const nodes = old.nodes as Map<string, ZoneNode> | PackedNodeTable;
  const ix = indexOf(nodes, apexKey);
  // Every name whose node is replaced, added or removed (see patchOrigin).
  const touched = new Set<string>();
  const put = (key: string, node: ZoneNode): void => {
    nodes.set(key, node);
    touched.add(key);
  };

  const add = (key: string, node: ZoneNode): void => {
    put(key, node);
    if (isWildcardKey(key)) ix.wildcards++;
    if (key === apexKey) return;
    const p = parentKey(key);
    ix.children.set(p, (ix.children.get(p) ?? 0) + 1);
    // Its ancestors exist: the sub-build made each as an empty non-terminal or with its records.
    if (!nodes.has(p)) add(p, sub.nodes.get(p)!);
  };
  const remove = (key: string): void => {
    nodes.delete(key);
    touched.add(key);
    if (isWildcardKey(key)) ix.wildcards--;
    const p = parentKey(key);
    const left = (ix.children.get(p) ?? 1) - 1;
    if (left > 0) ix.children.set(p, left);
    else ix.children.delete(p);
    // An empty non-terminal left with nothing below it goes too.
    const parent = nodes.get(p);
    if (p !== apexKey && left === 0 && parent?.rrsetCount === 0 && !extraNames.has(p)) remove(p);
  };

  const fresh = new Set<ZoneNode>();
  for (const key of changed) {
    const before = nodes.get(key);
    if (before !== undefined) removeReferrers(ix, key, before);
    const node = sub.nodes.get(key);
    if (node !== undefined && (node.rrsetCount > 0 || key === apexKey || extraNames.has(key))) {
      if (before === undefined) add(key, node);
      else put(key, node);
      addReferrers(ix, key, node);
      fresh.add(node);
    } else if (before !== undefined) {
      // No records left: it stays as an empty non-terminal while names exist below it.
      if ((ix.children.get(key) ?? 0) === 0) remove(key);
      else if (before.rrsetCount > 0) put(key, new ZoneNode(before.name, NO_RRSETS, false));
    }
  }

  // Additional data: of the new RRsets, and of the RRsets whose RDATA names a changed name.
  const affected = new Set<string>();
  for (const node of fresh) affected.add(node.name.keys[0] ?? '');
  for (const key of changed) {
    const owners = ix.referrers.get(key);
    if (typeof owners === 'string') affected.add(owners);
    else for (const owner of owners ?? []) affected.add(owner);
  }
  for (const key of affected) {
    const node = nodes.get(key);
    if (node === undefined) continue;
    const isFresh = fresh.has(node);
    let rrsets: RRset[] | null = null;
    for (let i = 0; i < node.rrsetCount; i++) {
      const rs = node.rrsetAt(i);
      if (!hasAdditional(rs.type)) continue;
      const additional = additionalFor(nodes, rs, rs.type === RR_TYPE.NS && node.delegation ? key : null);
      if (isFresh) {
        if (additional.length > 0 || rs.additional.length > 0) rs.additional = additional;
        continue;
      }
      // Shared with the previous snapshot's RRsets: a copy carries the new additional data.
      const copy = new RRset(rs.type, rs.ttl, rs.count, rs.data, rs.start, rs.shape, rs.names);
      if (additional.length > 0) copy.additional = additional;
      rrsets ??= node.rrsets.slice();
      rrsets[i] = copy;
    }
    if (rrsets !== null) put(key, new ZoneNode(node.name, rrsets, node.delegation));
  }

  const patched = { ...sub, nodes, hasWildcards: ix.wildcards > 0, skipped: old.skipped + sub.skipped };
  // Only what follows patches needs an origin (see PatchOrigin): an unsigned zone keeps none.
  if (followsPatches(patched)) recordOrigin(patched, old, touched);
  return patched;
}
