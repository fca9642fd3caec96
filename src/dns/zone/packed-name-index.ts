/**
 * The names of a packed zone (packed-records.ts), indexed in typed arrays with no object per name:
 * each name's wire form (letter case as first spelled) in one byte array, its key hash
 * (name-key-hash.ts), where its records lie in the packed bytes (runs of consecutive records of
 * one owner), and its number of child names; an open-addressing table finds a name by its key.
 * Empty non-terminals (RFC 4592 §2.2.2) are names too, spelled as the first owner below them.
 * Building it is one pass over the records: about 0.4 s and 30 MiB at a million records, where
 * building a node object per name took 4 s and 290 MiB (docs/benchmarks.md, "A 1M-record zone").
 */
import { LABEL_MAX, NAME_MAX } from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { rdataNamesValid } from '../wire/rrset-encoding.ts';
import { NAME_HASH_OFFSET, NAME_HASH_PRIME, nameKeyHash } from '../wire/name-key-hash.ts';
import type { WireName } from '../wire/wire-name.ts';
import { lowerByte, wireNameFromText, wireSize } from '../wire/wire-name.ts';
import { SAME_OWNER, type PackedZoneRecords } from './packed-records.ts';

/** Records of one name as recordsOf reads them: record i's RDATA is at[i], length[i] of the packed bytes. */
export class RecordScratch {
  type = new Int32Array(16);
  ttl = new Uint32Array(16);
  at = new Int32Array(16);
  length = new Int32Array(16);

  grow(): void {
    const size = this.type.length * 2;
    this.type = grown(this.type, size);
    this.ttl = grown(this.ttl, size);
    this.at = grown(this.at, size);
    this.length = grown(this.length, size);
  }
}

const NO_RUN = -1;
const LOWER = new Uint8Array(256).map((_, i) => lowerByte(i));
const KEY_SCRATCH = Buffer.allocUnsafe(NAME_MAX);
const INITIAL_NAMES = 1024;

/** Whether the whole build keeps the record (zone-snapshot-builder.ts: not OPT, its RDATA's names sound). */
function servedRecord(type: number, bytes: Uint8Array, from: number, to: number): boolean {
  return type !== RR_TYPE.OPT && rdataNamesValid(type, bytes, from, to);
}

function grown<T extends Int32Array | Uint32Array | Uint8Array>(a: T, size: number): T {
  if (size <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

/** The owner's wire form being indexed, its label starts and the key hash of each suffix. */
class OwnerScratch {
  readonly wire = new Uint8Array(NAME_MAX + 1);
  size = 0;
  readonly labelAt = new Int32Array(128);
  labels = 0;
  readonly suffixHash = new Int32Array(129);

  /**
   * Reads a stored-form owner (UTF-8 at [at, at + length) of `bytes`) into `wire`; false when it
   * is not a valid name. Plain ASCII names are converted here; escapes and other characters go
   * through wireNameFromText.
   */
  read(bytes: Uint8Array, at: number, length: number): boolean {
    let end = at + length;
    if (length > 0 && bytes[end - 1] === 0x2e) end--;
    if (end === at) {
      this.wire[0] = 0;
      this.size = 1;
      this.labels = 0;
      this.hash();
      return true;
    }
    if (end - at + 2 > NAME_MAX) return false;
    let head = 0;
    this.labels = 0;
    const wire = this.wire;
    for (let i = at; i < end; i++) {
      const c = bytes[i]!;
      if (c === 0x2e) {
        if (!this.closeLabel(head, i - at)) return false;
        head = i - at + 1;
      } else if (c === 0x5c || c >= 0x80) {
        return this.readText(Buffer.from(bytes.buffer, bytes.byteOffset + at, length));
      } else {
        wire[i - at + 1] = c;
      }
    }
    if (!this.closeLabel(head, end - at)) return false;
    wire[end - at + 1] = 0;
    this.size = end - at + 2;
    this.hash();
    return true;
  }

  private closeLabel(head: number, end: number): boolean {
    const len = end - head;
    if (len === 0 || len > LABEL_MAX) return false;
    this.wire[head] = len;
    this.labelAt[this.labels++] = head;
    return true;
  }

  private readText(text: Buffer): boolean {
    let name: WireName;
    try {
      name = wireNameFromText(text.toString('utf8'));
    } catch {
      return false;
    }
    this.fromWire(name);
    return true;
  }

  /** Takes a name already in wire form (valid: a WireName's). */
  fromWire(name: WireName): void {
    this.size = wireSize(name);
    this.wire.set(name.bytes.subarray(name.at, name.at + this.size));
    this.labels = 0;
    for (let p = 0; this.wire[p] !== 0; p += this.wire[p]! + 1) this.labelAt[this.labels++] = p;
    this.hash();
  }

  /** suffixHash[i]: nameKeyHash of the suffix from label i (labels hashed last to first). */
  private hash(): void {
    const wire = this.wire;
    const suffixHash = this.suffixHash;
    let h = NAME_HASH_OFFSET;
    suffixHash[this.labels] = h;
    for (let i = this.labels - 1; i >= 0; i--) {
      const p = this.labelAt[i]!;
      const len = wire[p]!;
      let lh = Math.imul(NAME_HASH_OFFSET ^ len, NAME_HASH_PRIME);
      for (let k = p + 1; k <= p + len; k++) lh = Math.imul(lh ^ LOWER[wire[k]!]!, NAME_HASH_PRIME);
      h = Math.imul(h ^ lh, NAME_HASH_PRIME);
      suffixHash[i] = h;
    }
  }
}

export class PackedNameIndex {
  /** Names indexed (ids 0 .. count - 1; the apex is 0). */
  count = 0;
  /** Records whose owner is not a valid name inside the zone (left out). */
  skipped = 0;
  /** Names whose first label is "*". */
  wildcards = 0;
  /** Wire forms of the names (each id's at nameAt[id], wireSize nameSize[id]). */
  names = new Uint8Array(1 << 16);
  private namesUsed = 0;
  private hashes = new Int32Array(INITIAL_NAMES);
  private nameAt = new Int32Array(INITIAL_NAMES);
  private nameSize = new Uint8Array(INITIAL_NAMES);
  private children = new Int32Array(INITIAL_NAMES);
  private firstRun = new Int32Array(INITIAL_NAMES);
  private lastRun = new Int32Array(INITIAL_NAMES);
  /** Runs: consecutive records of one owner, at byte runAt[r] of the packed bytes. */
  private runAt = new Int32Array(INITIAL_NAMES);
  private runCount = new Int32Array(INITIAL_NAMES);
  private runNext = new Int32Array(INITIAL_NAMES);
  private runs = 0;
  /**
   * Open addressing, probed linearly from the key hash: slot s is the pair (key hash, id + 1) at
   * 2s (id + 1 = 0: empty), so a probe reads one cache line, not the slot and then the name's hash.
   */
  private slots = new Int32Array(INITIAL_NAMES * 4);

  constructor(
    readonly packed: PackedZoneRecords,
    apex: WireName,
    /** Names that exist without records (zone-extension.ts existingNames). */
    extra: readonly WireName[],
  ) {
    // Sized for the records at once (every record a name of its own at most, each name's wire no
    // longer than its record): growing as names come copied and rehashed the arrays many times.
    this.growNames(packed.count + extra.length + 1);
    this.runAt = new Int32Array(packed.count);
    this.runCount = new Int32Array(packed.count);
    this.runNext = new Int32Array(packed.count);
    this.slots = new Int32Array(4 << Math.ceil(Math.log2(packed.count + extra.length + 1)));
    this.names = new Uint8Array(packed.bytes.length + NAME_MAX * (extra.length + 1));
    const scratch = new OwnerScratch();
    scratch.fromWire(apex);
    const apexLabels = apex.keys.length;
    this.addOwner(scratch, apexLabels);
    this.indexRecords(scratch, apexLabels);
    for (const name of extra) {
      scratch.fromWire(name);
      if (this.inZone(scratch, apexLabels)) this.addOwner(scratch, apexLabels);
    }
    this.trim();
  }

  // ---- lookups ----

  /** The id of the name with canonical key `key` (see WireName), or -1. */
  find(key: string, hash = nameKeyHash(key)): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = slots[2 * s + 1]!;
      if (v === 0) return -1;
      if (slots[2 * s] === hash && this.keyEquals(v - 1, key)) return v - 1;
    }
  }

  /** False when no name's key has this hash (name-key-hash.ts). */
  hasHash(hash: number): boolean {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      if (slots[2 * s + 1] === 0) return false;
      if (slots[2 * s] === hash) return true;
    }
  }

  /** The canonical key of name `id` (lower-cased wire without the terminal zero, latin1). */
  keyOf(id: number): string {
    const at = this.nameAt[id]!;
    const size = this.nameSize[id]! - 1;
    const names = this.names;
    for (let i = 0; i < size; i++) KEY_SCRATCH[i] = LOWER[names[at + i]!]!;
    return KEY_SCRATCH.toString('latin1', 0, size);
  }

  /** Where name `id`'s wire form is in `names`. */
  wireAt(id: number): number {
    return this.nameAt[id]!;
  }

  /** Child names of name `id` (one label below it). */
  childCount(id: number): number {
    return this.children[id]!;
  }

  /**
   * Reads the records of name `id` into `out` (in the order of the packed bytes) and returns how
   * many: no object per record, RDATA as offsets into the packed bytes.
   */
  recordsOf(id: number, out: RecordScratch): number {
    const bytes = this.packed.bytes;
    let n = 0;
    for (let r = this.firstRun[id]!; r !== NO_RUN; r = this.runNext[r]!) {
      let p = this.runAt[r]!;
      for (let k = this.runCount[r]!; k > 0; k--) {
        const length = (bytes[p]! << 8) | bytes[p + 1]!;
        p += 2 + (length === SAME_OWNER ? 0 : length);
        const rdLength = (bytes[p + 6]! << 8) | bytes[p + 7]!;
        if (n === out.type.length) out.grow();
        out.type[n] = (bytes[p]! << 8) | bytes[p + 1]!;
        out.ttl[n] =
          ((bytes[p + 2]! << 24) | (bytes[p + 3]! << 16) | (bytes[p + 4]! << 8) | bytes[p + 5]!) >>> 0;
        out.at[n] = p + 8;
        out.length[n] = rdLength;
        n++;
        p += 8 + rdLength;
      }
    }
    return n;
  }

  private keyEquals(id: number, key: string): boolean {
    if (this.nameSize[id]! - 1 !== key.length) return false;
    const at = this.nameAt[id]!;
    for (let i = 0; i < key.length; i++)
      if (lowerByte(this.names[at + i]!) !== key.charCodeAt(i)) return false;
    return true;
  }

  // ---- building ----

  /** The scratch name is the apex or below it. */
  private inZone(scratch: OwnerScratch, apexLabels: number): boolean {
    const depth = scratch.labels - apexLabels;
    if (depth < 0 || scratch.suffixHash[depth] !== this.hashes[0]) return false;
    const apexAt = this.nameAt[0]!;
    const at = depth === scratch.labels ? scratch.size - 1 : scratch.labelAt[depth]!;
    const size = this.nameSize[0]!;
    if (scratch.size - at !== size) return false;
    for (let i = 0; i < size; i++) {
      if (lowerByte(scratch.wire[at + i]!) !== lowerByte(this.names[apexAt + i]!)) return false;
    }
    return true;
  }

  private indexRecords(scratch: OwnerScratch, apexLabels: number): void {
    const bytes = this.packed.bytes;
    let p = 0;
    // The scratch holds the owner of the records read; it becomes a name at its first record that
    // is served, as the whole build registers an owner only with a valid record.
    let inZone = false;
    let owner = -1;
    let run = NO_RUN;
    for (let i = 0; i < this.packed.count; i++) {
      const start = p;
      const length = (bytes[p]! << 8) | bytes[p + 1]!;
      p += 2;
      if (length !== SAME_OWNER) {
        inZone = scratch.read(bytes, p, length) && this.inZone(scratch, apexLabels);
        owner = -1;
        run = NO_RUN;
        p += length;
      }
      if (p + 8 > bytes.length) throw new Error('truncated');
      const type = (bytes[p]! << 8) | bytes[p + 1]!;
      const end = p + 8 + ((bytes[p + 6]! << 8) | bytes[p + 7]!);
      if (end > bytes.length) throw new Error('truncated');
      const valid = inZone && servedRecord(type, bytes, p + 8, end);
      if (!valid) this.skipped++;
      // An invalid record inside a run stays in it: making the node drops it (packed-node-table.ts).
      if (run !== NO_RUN) this.runCount[run]!++;
      else if (valid) {
        if (owner < 0) owner = this.addOwner(scratch, apexLabels);
        run = this.addRun(owner, start);
      }
      p = end;
    }
  }

  private addRun(owner: number, at: number): number {
    // The run arrays are sized to the records (a run holds one at least).
    const r = this.runs++;
    this.runAt[r] = at;
    this.runCount[r] = 1;
    this.runNext[r] = NO_RUN;
    if (this.firstRun[owner] === NO_RUN) this.firstRun[owner] = r;
    else this.runNext[this.lastRun[owner]!] = r;
    this.lastRun[owner] = r;
    return r;
  }

  /** The id of the scratch name, added (with its missing ancestors) if new. */
  private addOwner(scratch: OwnerScratch, apexLabels: number): number {
    const id = this.findSuffix(scratch, 0);
    if (id >= 0) return id;
    const added = this.addName(scratch, 0, -1);
    let child = added;
    const depth = scratch.labels - apexLabels;
    for (let i = 1; i <= depth; i++) {
      // The apex (id 0) is every name's last ancestor: most names of a large zone sit right below it.
      const parent = i === depth ? 0 : this.findSuffix(scratch, i);
      if (parent >= 0) {
        this.children[parent]!++;
        break;
      }
      child = this.addName(scratch, i, child);
      this.children[child] = 1;
    }
    return added;
  }

  /** The id of the scratch name's suffix from label i, or -1. */
  private findSuffix(scratch: OwnerScratch, i: number): number {
    const hash = scratch.suffixHash[i]!;
    const at = i === scratch.labels ? scratch.size - 1 : scratch.labelAt[i]!;
    const size = scratch.size - at;
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = slots[2 * s + 1]!;
      if (v === 0) return -1;
      const id = v - 1;
      if (slots[2 * s] !== hash || this.nameSize[id] !== size) continue;
      const nameAt = this.nameAt[id]!;
      let k = 0;
      while (k < size && lowerByte(this.names[nameAt + k]!) === lowerByte(scratch.wire[at + k]!)) k++;
      if (k === size) return id;
    }
  }

  /**
   * Adds the scratch name's suffix from label i. Its wire form is copied for the name itself (i
   * = 0); an ancestor shares the bytes of the name it was added for (`child`).
   */
  private addName(scratch: OwnerScratch, i: number, child: number): number {
    if ((this.count + 1) * 4 > this.slots.length) this.growSlots();
    const id = this.count++;
    if (id >= this.hashes.length) this.growNames(id + 1);
    const at = i === scratch.labels ? scratch.size - 1 : scratch.labelAt[i]!;
    const size = scratch.size - at;
    if (child < 0) {
      const names = (this.names = grown(this.names, this.namesUsed + size));
      const wire = scratch.wire;
      const to = this.namesUsed;
      for (let k = 0; k < size; k++) names[to + k] = wire[at + k]!;
      this.nameAt[id] = to;
      this.namesUsed += size;
    } else {
      this.nameAt[id] = this.nameAt[child]! + this.nameSize[child]! - size;
    }
    this.nameSize[id] = size;
    this.hashes[id] = scratch.suffixHash[i]!;
    this.children[id] = 0;
    this.firstRun[id] = NO_RUN;
    if (size > 2 && scratch.wire[at] === 1 && scratch.wire[at + 1] === 0x2a) this.wildcards++;
    this.place(id);
    return id;
  }

  private place(id: number): void {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const hash = this.hashes[id]!;
    let s = hash & mask;
    while (slots[2 * s + 1] !== 0) s = (s + 1) & mask;
    slots[2 * s] = hash;
    slots[2 * s + 1] = id + 1;
  }

  private growNames(size: number): void {
    if (size <= this.hashes.length) return;
    this.hashes = grown(this.hashes, size);
    this.nameAt = grown(this.nameAt, size);
    this.nameSize = grown(this.nameSize, size);
    this.children = grown(this.children, size);
    this.firstRun = grown(this.firstRun, size);
    this.lastRun = grown(this.lastRun, size);
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let id = 0; id < this.count; id++) this.place(id);
  }

  /** Drops the spare capacity the build left (the table keeps a load of at most one half). */
  private trim(): void {
    const n = this.count;
    this.hashes = new Int32Array(0); // in the slots
    this.nameAt = this.nameAt.slice(0, n);
    this.nameSize = this.nameSize.slice(0, n);
    this.children = this.children.slice(0, n);
    this.firstRun = this.firstRun.slice(0, n);
    this.lastRun = new Int32Array(0);
    this.runAt = this.runAt.slice(0, this.runs);
    this.runCount = this.runCount.slice(0, this.runs);
    this.runNext = this.runNext.slice(0, this.runs);
    this.names = this.names.slice(0, this.namesUsed);
  }
}
