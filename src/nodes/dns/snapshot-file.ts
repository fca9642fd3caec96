import { readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DnssecSigningKey, ZoneData, ZoneDnssec } from '../../dns/index.ts';
import type { Sealer } from '../../kernel/crypto/sealing.ts';
import type { ZoneMirror } from './zone-sync.ts';
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
/** A record's owner length meaning "the owner of the record before" (names are at most 255 octets). */
const SAME_OWNER = 0xffff;

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
 * its head (u32 length, StoredZone JSON) then its records, each: u16 owner length (SAME_OWNER: the
 * previous record's owner) and the owner (UTF-8), u16 type, u32 TTL, u16 RDATA length and the
 * RDATA. Reading is one read of the file and one pass over it: each record's RDATA is a view into
 * the file's bytes, and records of one owner share its string.
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

/** Records [from, to) of `records` in the binary record layout. */
function recordsPiece(records: ZoneData['records'], from: number, to: number): Buffer {
  let size = 0;
  let previous: string | null = from > 0 ? records[from - 1]!.name : null;
  for (let i = from; i < to; i++) {
    const r = records[i]!;
    size += 2 + (r.name === previous ? 0 : Buffer.byteLength(r.name)) + 8 + r.rdata.length;
    previous = r.name;
  }
  const out = Buffer.allocUnsafe(size);
  let p = 0;
  previous = from > 0 ? records[from - 1]!.name : null;
  for (let i = from; i < to; i++) {
    const r = records[i]!;
    if (r.name === previous) p = out.writeUInt16BE(SAME_OWNER, p);
    else {
      const n = out.write(r.name, p + 2);
      out.writeUInt16BE(n, p);
      p += 2 + n;
    }
    previous = r.name;
    p = out.writeUInt16BE(r.type, p);
    p = out.writeUInt32BE(r.ttl, p);
    p = out.writeUInt16BE(r.rdata.length, p);
    out.set(r.rdata, p);
    p += r.rdata.length;
  }
  return out;
}

/** Reads the file's zones; throws on anything malformed (the caller answers null). */
function parseSnapshot(bytes: Buffer, keys: KeySealing | null): ZoneData[] {
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
  const zones: ZoneData[] = [];
  for (let z = 0; z < head.zones; z++) {
    const stored = json<StoredZone>();
    const records = new Array<ZoneData['records'][number]>(stored.records);
    let owner = '';
    for (let i = 0; i < stored.records; i++) {
      const length = bytes.readUInt16BE(p);
      p += 2;
      if (length !== SAME_OWNER) {
        owner = bytes.toString('utf8', p, p + length);
        p += length;
      } else if (i === 0) throw new Error('no owner');
      const type = bytes.readUInt16BE(p);
      const ttl = bytes.readUInt32BE(p + 2);
      const rdLength = bytes.readUInt16BE(p + 6);
      p += 8;
      if (p + rdLength > bytes.length) throw new Error('truncated');
      records[i] = {
        name: owner,
        type,
        ttl,
        rdata: new Uint8Array(bytes.buffer, bytes.byteOffset + p, rdLength),
      };
      p += rdLength;
    }
    zones.push(fromStored(stored, records, keys));
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

/** A zone's StoredZone head. */
function zoneHead(zone: ZoneData, keys: KeySealing | null): StoredZone {
  const d = zone.dnssec;
  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    records: zone.records.length,
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
 * The zones a DNS node serves, kept on disk so a node that starts while the database is down can
 * still answer. Fed as a ZoneMirror; written through an AtomicFileWriter (debounced, atomic).
 */
export class SnapshotFile implements ZoneMirror {
  private readonly zones = new Map<number, ZoneData>();
  private readonly writer: AtomicFileWriter;

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
    try {
      return parseSnapshot(bytes, this.options.keys ?? null);
    } catch {
      return null;
    }
  }

  replaceAll(zones: readonly ZoneData[]): void {
    this.zones.clear();
    for (const z of zones) this.zones.set(z.id, z);
    this.writer.schedule();
  }

  upsert(zone: ZoneData): void {
    this.zones.set(zone.id, zone);
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

  /** The file's layout (see parseSnapshot), written RECORDS_PER_PIECE records at a time (see there). */
  private async write(out: FileHandle): Promise<void> {
    const zones = [...this.zones.values()];
    const keys = this.options.keys ?? null;
    const head: StoredSnapshot = { format: FORMAT, writtenAt: new Date().toISOString(), zones: zones.length };
    await out.write(Buffer.concat([MAGIC, jsonBlock(head)]));
    for (const zone of zones) {
      await out.write(jsonBlock(zoneHead(zone, keys)));
      for (let i = 0; i < zone.records.length; i += RECORDS_PER_PIECE) {
        await out.write(recordsPiece(zone.records, i, Math.min(zone.records.length, i + RECORDS_PER_PIECE)));
      }
    }
  }
}
