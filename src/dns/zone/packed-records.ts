/**
 * A zone's records packed in one byte layout (integers big-endian), each: u16 owner length
 * (SAME_OWNER: the previous record's owner) and the owner (UTF-8, stored form), u16 type, u32 TTL,
 * u16 RDATA length and the RDATA (about 37 bytes a record). The DNS node's snapshot file holds
 * zones in it, and a large zone is served from it (packed-node-table.ts): no object per record.
 */
import type { PackedZoneRecords, ZoneData, ZoneRecordData } from './zone-data.ts';
export type { PackedZoneRecords } from './zone-data.ts';

/** A record's owner length meaning "the owner of the record before" (names are at most 255 octets). */
export const SAME_OWNER = 0xffff;
/** Records [from, to) of `records` in the layout. */
export function recordsPiece(records: ZoneData['records'], from: number, to: number): Buffer {
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
    p = writeRecord(out, p, r.name === previous ? null : r.name, r);
    previous = r.name;
  }
  return out;
}

/** All of `records` packed (ZoneData.packed). */
export function packRecords(records: ZoneData['records']): PackedZoneRecords {
  return { count: records.length, bytes: recordsPiece(records, 0, records.length) };
}

/** `zone` as a packed zone is handed over: its records packed, the apex's records beside them. */
export function packedZone(zone: ZoneData): ZoneData {
  const apex = zone.records.filter((r) => r.name === zone.domain);
  return { ...zone, records: apex, packed: packRecords(zone.records) };
}

/** One record at `p` of `out` (owner null: SAME_OWNER); the offset after it. */
export function writeRecord(out: Buffer, p: number, owner: string | null, r: ZoneRecordData): number {
  if (owner === null) p = out.writeUInt16BE(SAME_OWNER, p);
  else {
    const n = out.write(owner, p + 2);
    out.writeUInt16BE(n, p);
    p += 2 + n;
  }
  p = out.writeUInt16BE(r.type, p);
  p = out.writeUInt32BE(r.ttl, p);
  p = out.writeUInt16BE(r.rdata.length, p);
  out.set(r.rdata, p);
  return p + r.rdata.length;
}

/**
 * Reads `count` records from `bytes` at `p`: the records (each RDATA a view into `bytes`, records
 * of one owner sharing its string) and the offset after them. Throws on bytes cut short.
 */
export function readRecords(
  bytes: Buffer,
  p: number,
  count: number,
): { records: ZoneRecordData[]; end: number } {
  const records = new Array<ZoneRecordData>(count);
  let owner = '';
  for (let i = 0; i < count; i++) {
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
  return { records, end: p };
}

/**
 * Zones of at least this many records are served packed (packed-node-table.ts): their names are
 * made into objects when asked, not all at load. Below it, every name is built at load
 * (zone-snapshot-builder.ts), which answers a little faster and costs little memory at that size.
 */
export const PACKED_ZONE_RECORDS = 100_000;

/**
 * Skips `count` records from `bytes` at `p` and returns the offset after them, with the records
 * owned by `domain` (stored form), each RDATA copied. Throws on bytes cut short.
 */
export function readApexRecords(
  bytes: Buffer,
  p: number,
  count: number,
  domain: string,
): { records: ZoneRecordData[]; end: number } {
  const apex = Buffer.from(domain);
  const records: ZoneRecordData[] = [];
  let atApex = false;
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt16BE(p);
    p += 2;
    if (length !== SAME_OWNER) {
      atApex = length === apex.length && bytes.compare(apex, 0, apex.length, p, p + length) === 0;
      p += length;
    } else if (i === 0) throw new Error('no owner');
    const rdLength = bytes.readUInt16BE(p + 6);
    if (p + 8 + rdLength > bytes.length) throw new Error('truncated');
    if (atApex) {
      const rdata = new Uint8Array(bytes.subarray(p + 8, p + 8 + rdLength));
      records.push({ name: domain, type: bytes.readUInt16BE(p), ttl: bytes.readUInt32BE(p + 2), rdata });
    }
    p += 8 + rdLength;
  }
  return { records, end: p };
}
