import { readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DnssecSigningKey, ZoneData, ZoneDnssec } from '../../dns/index.ts';
import type { Sealer } from '../../kernel/crypto/sealing.ts';
import type { ZoneMirror } from './zone-sync.ts';
import { AtomicFileWriter, type AtomicFileWriterOptions } from '../shared/atomic-file-writer.ts';

export const SNAPSHOT_FILE_NAME = 'dns-snapshot.json';
const FORMAT = 1;
/**
 * Records serialised per write call: the file is written piece by piece, each piece an await, so a
 * DNS process writing a 1M-record zone keeps answering (one piece costs a few milliseconds).
 */
export const RECORDS_PER_PIECE = 5000;

interface StoredRecord {
  readonly name: string;
  readonly type: number;
  readonly ttl: number;
  /** RDATA, base64. */
  readonly rdata: string;
}

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

interface StoredZone {
  readonly id: number;
  readonly domain: string;
  readonly serial: number;
  readonly records: readonly StoredRecord[];
  readonly steering?: ZoneData['steering'];
  readonly dnssec?: StoredDnssec;
}

interface StoredSnapshot {
  readonly format: number;
  readonly writtenAt: string;
  readonly zones: readonly StoredZone[];
}

/*
 * DNSSEC private keys are written sealed exactly as the database keeps them (SEALING_KEY, the
 * key's zone and role as context), so a node cold-started from the file answers signed at once;
 * without a sealer they are left out (the zone is then served unsigned until the database
 * returns). TSIG secrets (`transfer`) are never written: transfers wait for the database.
 */
function toStoredRecord(r: ZoneData['records'][number]): StoredRecord {
  return {
    name: r.name,
    type: r.type,
    ttl: r.ttl,
    rdata: Buffer.from(r.rdata.buffer, r.rdata.byteOffset, r.rdata.length).toString('base64'),
  };
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

/** A StoredZone without its records, as JSON missing the closing brace (records follow). */
function zoneHeadJson(zone: ZoneData, keys: KeySealing | null): string {
  const d = zone.dnssec;
  const head: Omit<StoredZone, 'records'> = {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
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
  return JSON.stringify(head).slice(0, -1);
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

function fromStored(zone: StoredZone, keys: KeySealing | null): ZoneData {
  return {
    id: zone.id,
    domain: zone.domain,
    serial: zone.serial,
    records: zone.records.map((r) => ({
      name: r.name,
      type: r.type,
      ttl: r.ttl,
      rdata: new Uint8Array(Buffer.from(r.rdata, 'base64')),
    })),
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
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = JSON.parse(text) as StoredSnapshot;
      if (parsed.format !== FORMAT || !Array.isArray(parsed.zones)) return null;
      return parsed.zones.map((z) => fromStored(z, this.options.keys ?? null));
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

  /** A StoredSnapshot as JSON, written RECORDS_PER_PIECE records at a time (see there). */
  private async write(out: FileHandle): Promise<void> {
    const zones = [...this.zones.values()];
    const writtenAt = JSON.stringify(new Date().toISOString());
    await out.write(`{"format":${FORMAT},"writtenAt":${writtenAt},"zones":[`);
    for (let z = 0; z < zones.length; z++) {
      const zone = zones[z]!;
      await out.write(`${z === 0 ? '' : ','}${zoneHeadJson(zone, this.options.keys ?? null)},"records":[`);
      for (let i = 0; i < zone.records.length; i += RECORDS_PER_PIECE) {
        const piece = zone.records.slice(i, i + RECORDS_PER_PIECE).map(toStoredRecord);
        await out.write(`${i === 0 ? '' : ','}${JSON.stringify(piece).slice(1, -1)}`);
      }
      await out.write(']}');
    }
    await out.write(']}');
  }
}
