/**
 * Binary form of one version of a zone's records in dns_zone_versions.records:
 * count (u32), then per record: name length (u16), name (UTF-8, stored form), type (u16),
 * TTL (u32), RDATA length (u16), RDATA.
 */
import type { ZoneRecordData } from '../../../dns/index.ts';

export function packRecords(records: readonly ZoneRecordData[]): Uint8Array {
  const names = records.map((r) => Buffer.from(r.name, 'utf8'));
  let size = 4;
  records.forEach((r, i) => (size += 2 + names[i]!.length + 8 + r.rdata.length));
  const out = Buffer.alloc(size);
  out.writeUInt32BE(records.length, 0);
  let p = 4;
  records.forEach((r, i) => {
    const name = names[i]!;
    out.writeUInt16BE(name.length, p);
    name.copy(out, p + 2);
    p += 2 + name.length;
    out.writeUInt16BE(r.type, p);
    out.writeUInt32BE(r.ttl >>> 0, p + 2);
    out.writeUInt16BE(r.rdata.length, p + 6);
    out.set(r.rdata, p + 8);
    p += 8 + r.rdata.length;
  });
  return new Uint8Array(out);
}

/** Throws on data that is not in this form. */
export function unpackRecords(data: Uint8Array): ZoneRecordData[] {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const count = b.readUInt32BE(0);
  const out: ZoneRecordData[] = [];
  let p = 4;
  for (let i = 0; i < count; i++) {
    const nameLen = b.readUInt16BE(p);
    const name = b.toString('utf8', p + 2, p + 2 + nameLen);
    p += 2 + nameLen;
    const type = b.readUInt16BE(p);
    const ttl = b.readUInt32BE(p + 2);
    const len = b.readUInt16BE(p + 6);
    if (p + 8 + len > b.length) throw new Error('truncated zone version');
    out.push({ name, type, ttl, rdata: new Uint8Array(b.subarray(p + 8, p + 8 + len)) });
    p += 8 + len;
  }
  return out;
}
