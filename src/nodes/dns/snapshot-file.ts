import { readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DnssecSigningKey, ZoneData, ZoneDnssec, ZoneNamesData } from '../../dns/index.ts';
import { applyNamesChange } from '../../dns/index.ts';
import type { Sealer } from '../../kernel/crypto/sealing.ts';
import type { ZoneMirror } from './zone-sync.ts';
import { packedWithNames, readRecords, recordsPiece, type PackedRecords } from './snapshot-records.ts';
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

/** A zone read from the file, and its records as they were there. */
interface ReadZone {
  readonly zone: ZoneData;
  readonly packed: PackedRecords;
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
    const { records, end } = readRecords(bytes, p, stored.records);
    const packed = { count: stored.records, pieces: [bytes.subarray(p, end)] };
    p = end;
    zones.push({ zone: fromStored(stored, records, keys), packed });
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

function fromStored(zone: StoredZone, records: ZoneData['records'], keys: KeySealing | null): ZoneData {
  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    records,
    ...(zone.steering !== undefined ? { steering: zone.steering } : {}),
    ...dnssecOf(zone, keys),
  };
}

export interface SnapshotFileOptions extends AtomicFileWriterOptions {
  /** Seals DNSSEC private keys into the file (and opens them back); none: they are left out. */
  readonly keys?: KeySealing | null;
}

/**
 * A zone as the file mirror keeps it: its settings (`zone`, records not read) and its records,
 * packed (snapshot-records.ts) or, until the next write packs them, as given.
 */
type Kept =
  | { readonly zone: ZoneData; readonly packed: PackedRecords }
  | { readonly zone: ZoneData; readonly packed: null };

/**
 * The zones a DNS node serves, kept on disk so a node that starts while the database is down can
 * still answer. Fed as a ZoneMirror; written through an AtomicFileWriter (debounced, atomic). Each
 * zone's records are kept in the file's own layout (packed at the first write after they arrive,
 * changes to a few names applied to the bytes): not a second copy of every record as objects
 * beside the DNS node's compiled zones.
 */
export class SnapshotFile implements ZoneMirror {
  private readonly zones = new Map<number, Kept>();
  private readonly writer: AtomicFileWriter;
  /**
   * The zones of the last read, with their records as read: kept packed as they are, and not
   * written again unchanged. Weak: a reader that is not the mirror (a DNS worker) keeps nothing.
   */
  private lastRead = new WeakMap<ZoneData, PackedRecords>();
  private lastReadCount = 0;

  constructor(
    readonly file: string,
    private readonly options: SnapshotFileOptions = {},
  ) {
    this.writer = new AtomicFileWriter(file, (out) => this.write(out), options);
  }

  static inDir(dataDir: string, options: SnapshotFileOptions = {}): SnapshotFile {
    return new SnapshotFile(path.join(dataDir, SNAPSHOT_FILE_NAME), options);
  }

  /** The zones of the last snapshot written; null when there is none or it does not parse. */
  async read(): Promise<ZoneData[] | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.file);
    } catch {
      return null;
    }
    let read: ReadZone[];
    try {
      read = parseSnapshot(bytes, this.options.keys ?? null);
    } catch {
      return null;
    }
    this.lastRead = new WeakMap(read.map((r) => [r.zone, r.packed]));
    this.lastReadCount = read.length;
    return read.map((r) => r.zone);
  }

  /**
   * The zones served now. When they are the very zones of the last read (a cold start served from
   * this file), they are kept as read and the file is not written again.
   */
  replaceAll(zones: readonly ZoneData[]): void {
    const asRead = zones.length === this.lastReadCount && zones.every((z) => this.lastRead.has(z));
    this.zones.clear();
    for (const z of zones) this.zones.set(z.id, this.kept(z));
    this.lastRead = new WeakMap();
    this.lastReadCount = 0;
    if (!asRead) this.writer.schedule();
  }

  upsert(zone: ZoneData): void {
    this.zones.set(zone.id, this.kept(zone));
    this.writer.schedule();
  }

  applyNames(zoneId: number, part: ZoneNamesData, names: readonly string[]): void {
    const kept = this.zones.get(zoneId);
    if (kept === undefined) return;
    const zone = { ...kept.zone, serial: part.serial };
    if (kept.packed === null) {
      const changed = applyNamesChange(kept.zone, part, names);
      if (changed !== null) this.zones.set(zoneId, { zone: changed, packed: null });
    } else {
      const packed = packedWithNames(kept.packed, zone.domain, part, names);
      if (packed !== null) this.zones.set(zoneId, { zone, packed });
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

  /** A zone of the last read is kept with its records as read; any other, as given until written. */
  private kept(zone: ZoneData): Kept {
    const packed = this.lastRead.get(zone);
    return packed !== undefined ? { zone: withoutRecords(zone), packed } : { zone, packed: null };
  }

  /**
   * The file's layout (see parseSnapshot). Records not yet packed are written RECORDS_PER_PIECE at
   * a time (see there), and kept packed from then on.
   */
  private async write(out: FileHandle): Promise<void> {
    const zones = [...this.zones.values()];
    const keys = this.options.keys ?? null;
    const head: StoredSnapshot = { format: FORMAT, writtenAt: new Date().toISOString(), zones: zones.length };
    await out.write(Buffer.concat([MAGIC, jsonBlock(head)]));
    for (const kept of zones) {
      const { zone } = kept;
      if (kept.packed !== null) {
        await out.write(jsonBlock(zoneHead(zone, kept.packed.count, keys)));
        for (const piece of kept.packed.pieces) await out.write(piece);
        continue;
      }
      await out.write(jsonBlock(zoneHead(zone, zone.records.length, keys)));
      const pieces: Buffer[] = [];
      for (let i = 0; i < zone.records.length; i += RECORDS_PER_PIECE) {
        const piece = recordsPiece(zone.records, i, Math.min(zone.records.length, i + RECORDS_PER_PIECE));
        pieces.push(piece);
        await out.write(piece);
      }
      // Packed from now on, unless the zone changed while it was being written.
      if (this.zones.get(zone.id) === kept) {
        this.zones.set(zone.id, {
          zone: withoutRecords(zone),
          packed: { count: zone.records.length, pieces: [Buffer.concat(pieces)] },
        });
      }
    }
  }
}

/** The zone's settings without its records (kept packed beside them). */
function withoutRecords(zone: ZoneData): ZoneData {
  return { ...zone, records: [] };
}
