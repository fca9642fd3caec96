/**
 * A large zone's node map served from its packed records (packed-records.ts) and their name index
 * (packed-name-index.ts): a name's ZoneNode is made when a lookup first needs it and kept in a
 * bounded cache, so the zone costs its packed bytes and index at rest, not an object per name and
 * per RRset. Knot's zone tree keeps one node per name with rdata in its own buffers; here the node
 * objects a V8 heap needs (about 400 bytes a name) are only those of the names asked lately.
 *
 * Behaves as the builder's NodeTable (zone-snapshot-builder.ts builds the same nodes, and
 * packed-node-table.test.ts compares answers of both): `get`, `has`, iteration, `size`, and the
 * `mayHave` filter of the resolver. A patch (zone-snapshot-patch.ts) changes it in place through
 * `set` and `delete`, which lie over the packed names (an overlay and the names removed).
 */
import { ByteArena } from '../wire/byte-arena.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import { SHAPE_FLAT, encodeRRset, rdataNames, rdataNamesValid, shapeOf } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { WireName } from '../wire/wire-name.ts';
import { NodeTable } from './node-table.ts';
import type { PackedZoneRecords } from './packed-records.ts';
import { PackedNameIndex, RecordScratch } from './packed-name-index.ts';
import { NO_RRSETS, ZoneNode, additionalFor, hasAdditional, isDuplicate } from './zone-snapshot.ts';

/**
 * Nodes per cache generation: a node asked again within about this many other names stays made.
 * Two generations are kept, so at most twice this many nodes (about 25 MiB) live at once. Tests
 * shrink it to walk eviction.
 */
export const packedCache = { generation: 32_768 };

const ONE: readonly number[] = [0];
const NO_NAMES: WireName[] = [];

export class PackedNodeTable implements ReadonlyMap<string, ZoneNode> {
  readonly index: PackedNameIndex;
  /** Nodes put by patches (they win over the packed names). */
  private readonly overlay = new NodeTable();
  /** Packed names a patch removed. */
  private readonly removed = new Set<string>();
  /** Overlay names that are not packed names. */
  private added = 0;
  private young = new Map<number, ZoneNode>();
  private old = new Map<number, ZoneNode>();
  /**
   * Nodes made as another node's additional-data targets, their own additional data not set yet:
   * it is set when a lookup returns them, so making one node makes its targets and no further (a
   * chain of MX targets is not followed to its end). Bounded as a generation of the cache.
   */
  private targets = new Map<number, ZoneNode>();
  /** Set while a node's additional data is set: the nodes made meanwhile wait in `targets`. */
  private filling = false;
  private readonly apexNode: ZoneNode;
  /** Bytes of the RRsets made (chunks are freed with the nodes that use them). */
  private readonly arena = new ByteArena();
  /** Owner keys of the RRsets made (see ownerOf). */
  private readonly owners = new WeakMap<RRset, string>();
  /** Nodes made so far, the apex's included (what a walk over every name costs shows here). */
  made = 0;
  /** The records of the node being made (make is never re-entered: additional data comes after). */
  private readonly records = new RecordScratch();

  constructor(
    packed: PackedZoneRecords,
    apex: WireName,
    extra: readonly WireName[],
    private readonly generation = packedCache.generation,
  ) {
    this.index = new PackedNameIndex(packed, apex, extra);
    this.apexNode = this.make(0);
    this.addAdditional(this.apexNode);
  }

  get size(): number {
    return this.index.count - this.removed.size + this.added;
  }

  get(key: string): ZoneNode | undefined {
    const put = this.overlay.get(key);
    if (put !== undefined) return put;
    if (this.removed.size > 0 && this.removed.has(key)) return undefined;
    const id = this.index.find(key);
    return id < 0 ? undefined : this.node(id);
  }

  has(key: string): boolean {
    if (this.overlay.has(key)) return true;
    if (this.removed.size > 0 && this.removed.has(key)) return false;
    return this.index.find(key) >= 0;
  }

  /** False when no name with a key of this hash is in the zone (see NodeTable.mayHave). */
  mayHave(hash: number): boolean {
    return this.index.hasHash(hash) || this.overlay.mayHave(hash);
  }

  /** A patch's new node for `key`. */
  set(key: string, node: ZoneNode): this {
    const packed = this.index.find(key) >= 0;
    if (!this.overlay.has(key) && !packed) this.added++;
    if (packed) this.removed.delete(key);
    this.overlay.set(key, node);
    return this;
  }

  /** A patch removes the name `key`. */
  delete(key: string): boolean {
    const had = this.has(key);
    const packed = this.index.find(key) >= 0;
    if (this.overlay.delete(key) && !packed) this.added--;
    if (packed) this.removed.add(key);
    return had;
  }

  /** The node of packed name `id`, made if not cached. */
  private node(id: number): ZoneNode {
    if (id === 0) return this.apexNode;
    const young = this.young.get(id);
    if (young !== undefined) return young;
    let node = this.old.get(id);
    if (node !== undefined) {
      this.cache(id, node);
      return node;
    }
    node = this.targets.get(id);
    if (this.filling) {
      // A target of the node being filled: only its A and AAAA RRsets are read.
      if (node === undefined) this.holdTarget(id, (node = this.make(id)));
      return node;
    }
    if (node === undefined) node = this.make(id);
    else this.targets.delete(id);
    // Cached first: a target that names this node back finds it.
    this.cache(id, node);
    this.addAdditional(node);
    return node;
  }

  private holdTarget(id: number, node: ZoneNode): void {
    if (this.targets.size >= this.generation) this.targets = new Map();
    this.targets.set(id, node);
  }

  private cache(id: number, node: ZoneNode): void {
    if (this.young.size >= this.generation) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(id, node);
  }

  /** The node of packed name `id` with its RRsets (their additional data not yet set). */
  private make(id: number): ZoneNode {
    this.made++;
    const key = this.index.keyOf(id);
    // The root's name has no labels (as wireNameFromText('') has).
    const keys: string[] = key === '' ? [] : [key];
    for (let p = key.charCodeAt(0) + 1; p < key.length; p += key.charCodeAt(p) + 1) keys.push(key.slice(p));
    const name = new WireName(keys, this.index.names, this.index.wireAt(id));
    const rec = this.records;
    const n = this.index.recordsOf(id, rec);
    if (n === 0) return new ZoneNode(name, NO_RRSETS, false);
    // Stable: records of one type stay in order (the first of duplicates is kept).
    const order =
      n === 1 ? ONE : Array.from({ length: n }, (_, i) => i).sort((a, b) => rec.type[a]! - rec.type[b]!);
    const rrsets: RRset[] = [];
    for (let g = 0; g < n;) {
      const type = rec.type[order[g]!]!;
      let end = g + 1;
      while (end < n && rec.type[order[end]!] === type) end++;
      const rs = type === RR_TYPE.OPT ? null : this.rrsetOf(type, order, g, end);
      if (rs !== null) rrsets.push(rs);
      g = end;
    }
    const delegation = id !== 0 && rrsets.some((rs) => rs.type === RR_TYPE.NS);
    for (const rs of rrsets) this.owners.set(rs, key);
    return new ZoneNode(name, rrsets.length === 0 ? NO_RRSETS : rrsets, delegation);
  }

  /**
   * The key of the packed name whose node holds `rrset` (made by this table): DNSSEC signs a
   * wildcard's RRset under the wildcard's name and finds it by the RRset (zone-signing.ts ownerOf),
   * and a node made after the zone's signing was set up is not among the RRsets it saw.
   */
  ownerOf(rrset: RRset): string | undefined {
    return this.owners.get(rrset);
  }

  /**
   * The types of name `key`'s RRsets (as its node holds them: OPT and types without a record the
   * build keeps left out), or undefined when the zone has no such name; read from the packed
   * records, no node made. DNSSEC's set-up reads this of every name (zone-signing.ts): making
   * each node for it cost seconds at a million records.
   */
  typesOf(key: string): readonly number[] | undefined {
    const put = this.overlay.get(key);
    if (put !== undefined) return put.rrsets.map((rs) => rs.type);
    if (this.removed.size > 0 && this.removed.has(key)) return undefined;
    const id = this.index.find(key);
    if (id === 0) return this.apexNode.rrsets.map((rs) => rs.type);
    return id < 0 ? undefined : this.packedTypes(id);
  }

  /** Whether name `key` is a delegation point (its node's `delegation`), no node made. */
  isDelegation(key: string): boolean {
    const put = this.overlay.get(key);
    if (put !== undefined) return put.delegation;
    if (this.removed.size > 0 && this.removed.has(key)) return false;
    const id = this.index.find(key);
    return id > 0 && this.packedTypes(id).includes(RR_TYPE.NS);
  }

  /** The types make() gives packed name `id` RRsets of, ascending. */
  private packedTypes(id: number): number[] {
    const rec = this.records;
    const bytes = this.index.packed.bytes;
    const n = this.index.recordsOf(id, rec);
    const types: number[] = [];
    for (let r = 0; r < n; r++) {
      const type = rec.type[r]!;
      if (type === RR_TYPE.OPT || types.includes(type)) continue;
      if (rdataNamesValid(type, bytes, rec.at[r]!, rec.at[r]! + rec.length[r]!)) types.push(type);
    }
    return types.sort((a, b) => a - b);
  }

  /** The RRset of records order[from .. to) (one type) as the builder encodes it; null if none is valid. */
  private rrsetOf(type: number, order: readonly number[], from: number, to: number): RRset | null {
    const rec = this.records;
    const bytes = this.index.packed.bytes;
    const flat = shapeOf(type) === SHAPE_FLAT && type !== RR_TYPE.DNAME;
    let ttl = Infinity;
    const rdatas: Uint8Array[] = [];
    const names: WireName[] = [];
    for (let g = from; g < to; g++) {
      const r = order[g]!;
      const rdata = bytes.subarray(rec.at[r]!, rec.at[r]! + rec.length[r]!);
      let found: WireName[] = NO_NAMES;
      if (!flat) {
        try {
          found = rdataNames(type, rdata);
        } catch {
          continue; // malformed RDATA: skipped, as the builder skips it
        }
      }
      ttl = Math.min(ttl, rec.ttl[r]!);
      if (rdatas.length > 0 && isDuplicate(rdatas, rdata)) continue;
      rdatas.push(rdata);
      for (const name of found) names.push(name);
    }
    return rdatas.length === 0 ? null : encodeRRset(type, ttl, rdatas, flat ? NO_NAMES : names, this.arena);
  }

  /** Additional-section data of the node's NS/MX/SRV RRsets (as the builder sets it). */
  private addAdditional(node: ZoneNode): void {
    const was = this.filling;
    this.filling = true;
    try {
      for (let i = 0; i < node.rrsetCount; i++) {
        const rs = node.rrsetAt(i);
        if (!hasAdditional(rs.type)) continue;
        const cut = rs.type === RR_TYPE.NS && node.delegation ? (node.keys[0] ?? '') : null;
        const additional = additionalFor(this, rs, cut);
        if (additional.length > 0) rs.additional = additional;
      }
    } finally {
      this.filling = was;
    }
  }

  /**
   * The keys of the RDATA names of packed name `id`'s NS/MX/SRV records, read from the packed bytes
   * without making its node (what a patch index needs of every name).
   */
  additionalTargets(id: number): string[] {
    const out: string[] = [];
    const rec = this.records;
    const bytes = this.index.packed.bytes;
    const n = this.index.recordsOf(id, rec);
    for (let r = 0; r < n; r++) {
      const type = rec.type[r]!;
      if (!hasAdditional(type)) continue;
      try {
        const rdata = bytes.subarray(rec.at[r]!, rec.at[r]! + rec.length[r]!);
        for (const name of rdataNames(type, rdata)) out.push(name.keys[0] ?? '');
      } catch {
        // malformed: no node has it
      }
    }
    return out;
  }

  /** The packed names not removed or replaced by a patch, by id (what a patch index visits). */
  *packedIds(): IterableIterator<number> {
    for (let id = 0; id < this.index.count; id++) {
      if (this.overlay.size === 0 && this.removed.size === 0) {
        yield id;
        continue;
      }
      const key = this.index.keyOf(id);
      if (!this.overlay.has(key) && !this.removed.has(key)) yield id;
    }
  }

  /** The nodes put by patches. */
  overlayEntries(): IterableIterator<[string, ZoneNode]> {
    return this.overlay.entries();
  }

  *entries(): MapIterator<[string, ZoneNode]> {
    yield* this.overlay.entries();
    for (const id of this.packedIds()) {
      const cached = id === 0 ? this.apexNode : (this.young.get(id) ?? this.old.get(id));
      if (cached !== undefined) yield [this.index.keyOf(id), cached];
      else {
        // Made for this visit only: a walk over every name must not push out the names asked.
        const node = this.make(id);
        this.addAdditional(node);
        yield [this.index.keyOf(id), node];
      }
    }
  }

  *keys(): MapIterator<string> {
    yield* this.overlay.keys();
    for (const id of this.packedIds()) yield this.index.keyOf(id);
  }

  *values(): MapIterator<ZoneNode> {
    for (const [, node] of this.entries()) yield node;
  }

  [Symbol.iterator](): MapIterator<[string, ZoneNode]> {
    return this.entries();
  }

  forEach(visit: (value: ZoneNode, key: string, map: ReadonlyMap<string, ZoneNode>) => void): void {
    for (const [key, node] of this.entries()) visit(node, key, this);
  }
}
