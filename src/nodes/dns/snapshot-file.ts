import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type {
  DnssecSigningKey,
  PackedZoneRecords,
  ZoneData,
  ZoneDnssec,
  ZoneNamesData,
  ZoneRecordData,
} from '../../dns/index.ts';
import {
  PACKED_ZONE_RECORDS,
  applyNamesChange,
  readApexRecords,
  readRecords,
  recordsPiece,
} from '../../dns/index.ts';
import type { Sealer } from '../../kernel/crypto/sealing.ts';
import type { ZoneMirror } from './zone-sync.ts';
import { packedWithNames, type PackedRecords } from './snapshot-records.ts';
import { AtomicFileWriter, type AtomicFileWriterOptions } from '../shared/atomic-file-writer.ts';

export const SNAPSHOT_FILE_NAME = 'dns-snapshot.bin';
const FORMAT = 2;
/** The file's first bytes: what it is and its format. */
const MAGIC = Buffer.from(`DNSSNAP${String.fromCharCode(FORMAT)}`, 'latin1');
/**
 * Records serialised per write call: the file is written piece by piece, each piece an await, so a
 * DNS process writing a 1M-record zone keeps answering (one piece costs a few milliseconds).
 */
export const RECORDS_PER_PIECE = 5000;
/** How long a read's file stays open for the mirror to take its zones on (replaceAll) at most. */
const LAST_READ_HOLD_MS = 30_000;

/** A signing key as the database keeps it: the private key sealed (base64) under its zone and role. */
interface StoredKey {
  readonly algorithm: DnssecSigningKey['algorithm'];
  readonly keyTag: number;
  readonly sealed: string;
}

interface StoredDnssec {
  readonly algorithm: ZoneDnssec['algorithm'];
  readonly nsecTtl: number;
  /** Absent in files written before denial was a setting: online. */
  readonly denial?: ZoneDnssec['denial'];
  readonly ksk: StoredKey;
  readonly zsk: StoredKey;
}

/** A zone's head (JSON): everything but its records, which follow it in binary. */
interface StoredZone {
  readonly id: number;
  readonly domain: string;
  readonly serial: number;
  /** How many records follow. */
  readonly records: number;
  readonly steering?: ZoneData['steering'];
  readonly dnssec?: StoredDnssec;
}

/** The file's head (JSON). */
interface StoredSnapshot {
  readonly format: number;
  readonly writtenAt: string;
  readonly zones: number;
}

/*
 * Layout (integers big-endian): MAGIC; the file head (u32 length, StoredSnapshot JSON); per zone
 * its head (u32 length, StoredZone JSON) then its records (snapshot-records.ts). Reading is one
 * read of the file and one pass over it: each record's RDATA is a view into the file's bytes, and
 * records of one owner share its string.
 *
 * DNSSEC private keys are written sealed exactly as the database keeps them (SEALING_KEY, the
 * key's zone and role as context), so a node cold-started from the file answers signed at once;
 * without a sealer they are left out (the zone is then served unsigned until the database
 * returns). TSIG secrets (`transfer`) are never written: transfers wait for the database.
 */
function jsonBlock(value: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(value));
  const out = Buffer.allocUnsafe(4 + json.length);
  out.writeUInt32BE(json.length, 0);
  json.copy(out, 4);
  return out;
}

/** Where a zone's records lie in a snapshot file: `count` records in `length` bytes from `at`. */
interface StoredRange {
  readonly at: number;
  readonly length: number;
  readonly count: number;
}

/** A zone read from the file, and where its records are there. */
interface ReadZone {
  readonly zone: ZoneData;
  readonly range: StoredRange;
}

/** Reads the file's zones; throws on anything malformed (the caller answers null). */
function parseSnapshot(bytes: Buffer, keys: KeySealing | null): ReadZone[] {
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw new Error('not a snapshot file of this format');
  let p = MAGIC.length;
  const json = <T>(): T => {
    const length = bytes.readUInt32BE(p);
    if (p + 4 + length > bytes.length) throw new Error('truncated');
    const value = JSON.parse(bytes.toString('utf8', p + 4, p + 4 + length)) as T;
    p += 4 + length;
    return value;
  };
  const head = json<StoredSnapshot>();
  if (head.format !== FORMAT || typeof head.zones !== 'number') throw new Error('unknown format');
  const zones: ReadZone[] = [];
  for (let z = 0; z < head.zones; z++) {
    const stored = json<StoredZone>();
    // A large zone is handed over packed, as it lies here (ZoneData.packed), with its apex records.
    const large = stored.records >= PACKED_ZONE_RECORDS;
    const { records, end } = large
      ? readApexRecords(bytes, p, stored.records, stored.domain)
      : readRecords(bytes, p, stored.records);
    const range = { at: p, length: end - p, count: stored.records };
    const packed = large ? { count: stored.records, bytes: bytes.subarray(p, end) } : undefined;
    p = end;
    zones.push({ zone: fromStored(stored, records, keys, packed), range });
  }
  if (p !== bytes.length) throw new Error('trailing bytes');
  return zones;
}

/** How DNSSEC private keys are sealed in the file: the sealer, and the context binding a key to its zone and role. */
export interface KeySealing {
  readonly sealer: Sealer;
  context(zoneId: number, role: 'ksk' | 'zsk'): string;
}

function sealKey(keys: KeySealing, zoneId: number, role: 'ksk' | 'zsk', key: DnssecSigningKey): StoredKey {
  const sealed = keys.sealer.seal(key.privateKeyPkcs8, keys.context(zoneId, role));
  return { algorithm: key.algorithm, keyTag: key.keyTag, sealed: Buffer.from(sealed).toString('base64') };
}

function openKey(keys: KeySealing, zoneId: number, role: 'ksk' | 'zsk', key: StoredKey): DnssecSigningKey {
  return {
    algorithm: key.algorithm,
    keyTag: key.keyTag,
    privateKeyPkcs8: keys.sealer.open(
      new Uint8Array(Buffer.from(key.sealed, 'base64')),
      keys.context(zoneId, role),
    ),
  };
}

/** A zone's StoredZone head (`records` records follow it). */
function zoneHead(zone: ZoneData, records: number, keys: KeySealing | null): StoredZone {
  const d = zone.dnssec;
  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    records,
    ...(zone.steering !== undefined ? { steering: zone.steering } : {}),
    ...(d !== undefined && keys !== null
      ? {
          dnssec: {
            algorithm: d.algorithm,
            nsecTtl: d.nsecTtl,
            ...(d.denial !== undefined ? { denial: d.denial } : {}),
            ksk: sealKey(keys, zone.id, 'ksk', d.ksk),
            zsk: sealKey(keys, zone.id, 'zsk', d.zsk),
          },
        }
      : {}),
  };
}

/** The zone's signing material, or none when there is no sealer or the keys do not open. */
function dnssecOf(zone: StoredZone, keys: KeySealing | null): { dnssec?: ZoneDnssec } {
  if (zone.dnssec === undefined || keys === null) return {};
  try {
    const d = zone.dnssec;
    return {
      dnssec: {
        algorithm: d.algorithm,
        nsecTtl: d.nsecTtl,
        ...(d.denial !== undefined ? { denial: d.denial } : {}),
        ksk: openKey(keys, zone.id, 'ksk', d.ksk),
        zsk: openKey(keys, zone.id, 'zsk', d.zsk),
      },
    };
  } catch {
    return {}; // sealed under another key: served unsigned until the database answers
  }
}

function fromStored(
  zone: StoredZone,
  records: ZoneData['records'],
  keys: KeySealing | null,
  packed: PackedZoneRecords | undefined,
): ZoneData {
  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    records,
    ...(packed !== undefined ? { packed } : {}),
    ...(zone.steering !== undefined ? { steering: zone.steering } : {}),
    ...dnssecOf(zone, keys),
  };
}

export interface SnapshotFileOptions extends AtomicFileWriterOptions {
  /** Seals DNSSEC private keys into the file (and opens them back); none: they are left out. */
  readonly keys?: KeySealing | null;
}

/** A change to a few names of a zone (ZoneMirror.applyNames), not yet applied to its stored records. */
interface NamesChange {
  readonly part: ZoneNamesData;
  readonly names: readonly string[];
}

/**
 * Changes applied one after another, as one (what applyNamesChange gives applied in turn): the
 * names of all, each name's records from the last change that names it, the last change's SOA.
 */
function mergedChanges(changes: readonly NamesChange[]): NamesChange {
  if (changes.length === 1) return changes[0]!;
  const lastNaming = new Map<string, number>();
  changes.forEach((c, i) => {
    for (const n of c.names) lastNaming.set(n, i);
  });
  const records: ZoneRecordData[] = [];
  changes.forEach((c, i) => {
    for (const r of c.part.records) {
      const last = lastNaming.get(r.name);
      if (last === undefined || last <= i) records.push(r);
    }
  });
  const { serial, soa } = changes[changes.length - 1]!.part;
  return { names: [...lastNaming.keys()], part: { serial, soa, records } };
}

/**
 * A zone as the file mirror keeps it: its records as given (`stored` null, until the next write),
 * or where they are in the file it holds open (`zone` then has no records) with the changes that
 * arrived since, applied to those bytes at the next write.
 */
type Kept =
  | { readonly zone: ZoneData; readonly stored: null }
  | { readonly zone: ZoneData; readonly stored: StoredRange; readonly changes: readonly NamesChange[] };

/**
 * The zones a DNS node serves, kept on disk so a node that starts while the database is down can
 * still answer. Fed as a ZoneMirror; written through an AtomicFileWriter (debounced, atomic). Once
 * a zone is in the file its records are not kept in memory at all: the mirror holds the file open
 * and knows where each zone's records lie in it; a write copies them from there into the next file,
 * changes to a few names applied on the way (snapshot-records.ts), and then holds that one. The
 * DNS node's compiled zones are the only copy of the records in memory.
 */
export class SnapshotFile implements ZoneMirror {
  private readonly zones = new Map<number, Kept>();
  private readonly writer: AtomicFileWriter;
  /** The file the kept ranges are in: the last written, or the one read at a cold start. */
  private source: FileHandle | null = null;
  /**
   * The zones of the last read and where their records are in the file read, held open
   * (`lastReadSource`) until they are served as read (replaceAll: kept there, not written again),
   * or for LAST_READ_HOLD_MS at most: a reader that is not the mirror (a DNS worker) keeps nothing
   * after that. The map is weak: it keeps no zone alive.
   */
  private lastRead = new WeakMap<ZoneData, StoredRange>();
  private lastReadCount = 0;
  private lastReadSource: FileHandle | null = null;
  private lastReadTimer: NodeJS.Timeout | null = null;
  /** What the write in progress put where: adopted once the file is in place (adopt). */
  private written: { readonly from: FileHandle | null; readonly file: Map<Kept, StoredRange> } | null = null;

  constructor(
    readonly file: string,
    private readonly options: SnapshotFileOptions = {},
  ) {
    this.writer = new AtomicFileWriter(file, (out) => this.write(out), {
      ...options,
      onReplaced: () => this.adopt(),
    });
  }

  static inDir(dataDir: string, options: SnapshotFileOptions = {}): SnapshotFile {
    return new SnapshotFile(path.join(dataDir, SNAPSHOT_FILE_NAME), options);
  }

  /** The zones of the last snapshot written; null when there is none or it does not parse. */
  async read(): Promise<ZoneData[] | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.file, 'r');
    } catch {
      return null;
    }
    let read: ReadZone[];
    try {
      read = parseSnapshot(await handle.readFile(), this.options.keys ?? null);
    } catch {
      await handle.close();
      return null;
    }
    await this.forgetLastRead();
    this.lastRead = new WeakMap(read.map((r) => [r.zone, r.range]));
    this.lastReadCount = read.length;
    this.lastReadSource = handle;
    this.lastReadTimer = setTimeout(() => void this.forgetLastRead(), LAST_READ_HOLD_MS);
    this.lastReadTimer.unref();
    return read.map((r) => r.zone);
  }

  /**
   * The zones served now. When they are the very zones of the last read (a cold start served from
   * this file), they are kept where they are in it (its records not held) and it is not written again.
   */
  replaceAll(zones: readonly ZoneData[]): void {
    const asRead =
      this.lastReadSource !== null &&
      zones.length === this.lastReadCount &&
      zones.every((z) => this.lastRead.has(z));
    this.zones.clear();
    if (asRead) {
      for (const z of zones) {
        this.zones.set(z.id, { zone: withoutRecords(z), stored: this.lastRead.get(z)!, changes: [] });
      }
      void this.source?.close();
      this.source = this.lastReadSource;
      this.lastReadSource = null;
    } else {
      for (const z of zones) this.zones.set(z.id, { zone: z, stored: null });
      this.writer.schedule();
    }
    void this.forgetLastRead();
  }

  upsert(zone: ZoneData): void {
    this.zones.set(zone.id, { zone, stored: null });
    this.writer.schedule();
  }

  applyNames(zoneId: number, part: ZoneNamesData, names: readonly string[]): void {
    const kept = this.zones.get(zoneId);
    if (kept === undefined) return;
    if (kept.stored === null) {
      const changed =
        kept.zone.packed === undefined
          ? applyNamesChange(kept.zone, part, names)
          : packedNamesChange(kept.zone, kept.zone.packed, part, names);
      if (changed !== null) this.zones.set(zoneId, { zone: changed, stored: null });
    } else {
      this.zones.set(zoneId, {
        zone: { ...kept.zone, serial: part.serial },
        stored: kept.stored,
        changes: [...kept.changes, { part, names }],
      });
    }
    this.writer.schedule();
  }

  remove(zoneId: number): void {
    this.zones.delete(zoneId);
    this.writer.schedule();
  }

  /** Writes what is pending now (shutdown, tests). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Writes what is pending, then lets the files held go (shutdown). */
  async close(): Promise<void> {
    await this.flush();
    await this.forgetLastRead();
    await this.source?.close();
    this.source = null;
    this.zones.clear();
  }

  private async forgetLastRead(): Promise<void> {
    const handle = this.lastReadSource;
    if (this.lastReadTimer !== null) clearTimeout(this.lastReadTimer);
    this.lastReadTimer = null;
    this.lastRead = new WeakMap();
    this.lastReadCount = 0;
    this.lastReadSource = null;
    await handle?.close();
  }

  /**
   * The file's layout (see parseSnapshot). Records given are written RECORDS_PER_PIECE at a time
   * (see there); records kept in the current file are copied from it, changes applied.
   */
  private async write(out: FileHandle): Promise<void> {
    const zones = [...this.zones.values()];
    const from = this.source;
    const keys = this.options.keys ?? null;
    const written = new Map<Kept, StoredRange>();
    this.written = null;
    const head: StoredSnapshot = { format: FORMAT, writtenAt: new Date().toISOString(), zones: zones.length };
    let position = 0;
    const put = async (bytes: Uint8Array): Promise<void> => {
      await out.write(bytes);
      position += bytes.length;
    };
    await put(Buffer.concat([MAGIC, jsonBlock(head)]));
    for (const kept of zones) {
      const { zone } = kept;
      const packed =
        kept.stored !== null
          ? await this.storedWithChanges(zone.domain, kept)
          : zone.packed !== undefined
            ? { count: zone.packed.count, pieces: [zone.packed.bytes] }
            : null;
      const count = packed === null ? zone.records.length : packed.count;
      await put(jsonBlock(zoneHead(zone, count, keys)));
      const at = position;
      if (packed !== null) for (const piece of packed.pieces) await put(piece);
      else {
        for (let i = 0; i < zone.records.length; i += RECORDS_PER_PIECE) {
          await put(recordsPiece(zone.records, i, Math.min(zone.records.length, i + RECORDS_PER_PIECE)));
        }
      }
      written.set(kept, { at, length: position - at, count });
    }
    this.written = { from, file: written };
  }

  /** A kept zone's records read from the current file, the changes since applied. */
  private async storedWithChanges(
    domain: string,
    kept: Extract<Kept, { stored: StoredRange }>,
  ): Promise<PackedRecords> {
    const bytes = Buffer.allocUnsafe(kept.stored.length);
    const { bytesRead } = await this.source!.read(bytes, 0, bytes.length, kept.stored.at);
    if (bytesRead !== bytes.length) throw new Error('snapshot file cut short under the mirror');
    const packed: PackedRecords = { count: kept.stored.count, pieces: [bytes] };
    if (kept.changes.length === 0) return packed;
    // One pass over the zone's records for every change since the last write.
    const change = mergedChanges(kept.changes);
    return packedWithNames(packed, domain, change.part, change.names) ?? packed;
  }

  /**
   * The file just written is in place: hold it, and keep each zone written where it is now in it,
   * with the changes that arrived during the write still to apply.
   */
  private async adopt(): Promise<void> {
    const written = this.written;
    this.written = null;
    if (written === null) return;
    const handle = await open(this.file, 'r');
    if (this.source !== written.from) {
      // Zones of another file were taken on meanwhile (a cold start's): they are where they are.
      await handle.close();
      return;
    }
    for (const [before, range] of written.file) {
      const now = this.zones.get(before.zone.id);
      if (now === undefined) continue;
      if (now === before) {
        this.zones.set(before.zone.id, { zone: withoutRecords(now.zone), stored: range, changes: [] });
      } else if (now.stored !== null && before.stored !== null && now.stored === before.stored) {
        // Changed during the write: the changes the write had are in the file now, the rest not.
        const later = now.changes.slice(before.changes.length);
        this.zones.set(before.zone.id, { zone: now.zone, stored: range, changes: later });
      }
    }
    const old = this.source;
    this.source = handle;
    await old?.close();
  }
}

/** The zone's settings without its records (kept packed beside them). */
function withoutRecords(zone: ZoneData): ZoneData {
  const { packed: _packed, ...rest } = zone;
  return { ...rest, records: [] };
}

/**
 * A zone handed over packed (ZoneData.packed: its records' bytes, the apex's records beside them)
 * with the records of `names` replaced by `part`'s, as applyNamesChange does to a zone of records.
 */
function packedNamesChange(
  zone: ZoneData,
  packed: PackedZoneRecords,
  part: ZoneNamesData,
  names: readonly string[],
): ZoneData | null {
  const changed = applyNamesChange(zone, part, names);
  const records = packedWithNames({ count: packed.count, pieces: [packed.bytes] }, zone.domain, part, names);
  if (changed === null || records === null) return null;
  return {
    ...changed,
    records: changed.records.filter((r) => r.name === zone.domain),
    packed: { count: records.count, bytes: Buffer.concat(records.pieces) },
  };
}
