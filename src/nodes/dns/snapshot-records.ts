/**
 * A zone's records in the snapshot file's binary layout (integers big-endian), each: u16 owner
 * length (SAME_OWNER: the previous record's owner) and the owner (UTF-8, stored form), u16 type,
 * u32 TTL, u16 RDATA length and the RDATA (about 37 bytes a record). The snapshot file writes zones
 * in it, and applies changes to a few names to a zone's records in it (packedWithNames) as it copies
 * them from the file it wrote last into the next.
 */
import type { ZoneData, ZoneNamesData, ZoneRecordData } from '../../dns/index.ts';
import { RR_TYPE } from '../../dns/index.ts';

/** A record's owner length meaning "the owner of the record before" (names are at most 255 octets). */
const SAME_OWNER = 0xffff;
/** Past this many pieces (a few per change applied), a zone's pieces are joined into one. */
const MAX_PIECES = 256;

/** A zone's records in the layout: `count` records over `pieces`, read as one stream. */
export interface PackedRecords {
  readonly count: number;
  readonly pieces: readonly Uint8Array[];
}

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

/** One record at `p` of `out` (owner null: SAME_OWNER); the offset after it. */
function writeRecord(out: Buffer, p: number, owner: string | null, r: ZoneRecordData): number {
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

/** The names a change touches, by their UTF-8 bytes: most owners are told apart by length alone. */
class NameSet {
  private readonly byLength = new Map<number, Buffer[]>();

  constructor(names: Iterable<string>) {
    for (const n of names) {
      const b = Buffer.from(n);
      const same = this.byLength.get(b.length);
      if (same === undefined) this.byLength.set(b.length, [b]);
      else same.push(b);
    }
  }

  has(bytes: Uint8Array, at: number, length: number): boolean {
    const same = this.byLength.get(length);
    if (same === undefined) return false;
    outer: for (const b of same) {
      for (let i = 0; i < length; i++) if (b[i] !== bytes[at + i]) continue outer;
      return true;
    }
    return false;
  }
}

/**
 * `packed` with the records owned by `names` replaced by those of `part` and its apex SOA by
 * `part.soa`, the others in their order (applyNamesChange, on the bytes); null when it has no apex
 * SOA. Kept records are views of the old pieces, not copies.
 */
export function packedWithNames(
  packed: PackedRecords,
  domain: string,
  part: ZoneNamesData,
  names: readonly string[],
): PackedRecords | null {
  const touched = new NameSet(names);
  const apex = new NameSet([domain]);
  const pieces: Uint8Array[] = [];
  let kept = 0;
  let soaReplaced = false;
  let ownerTouched = false;
  let ownerApex = false;
  for (const piece of packed.pieces) {
    const view = Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    let runStart = 0;
    let p = 0;
    while (p < view.length) {
      const start = p;
      const length = view.readUInt16BE(p);
      p += 2;
      if (length !== SAME_OWNER) {
        ownerTouched = touched.has(view, p, length);
        ownerApex = apex.has(view, p, length);
        p += length;
      }
      const type = view.readUInt16BE(p);
      p += 8 + view.readUInt16BE(p + 6);
      const replace = !soaReplaced && ownerApex && type === RR_TYPE.SOA;
      if (!ownerTouched && !replace) {
        kept++;
        continue;
      }
      if (start > runStart) pieces.push(view.subarray(runStart, start));
      runStart = p;
      if (replace) {
        const owner = length === SAME_OWNER ? null : domain;
        const out = Buffer.allocUnsafe(
          2 + (owner === null ? 0 : Buffer.byteLength(owner)) + 8 + part.soa.rdata.length,
        );
        writeRecord(out, 0, owner, part.soa);
        pieces.push(out);
        soaReplaced = true;
        kept++;
      }
    }
    if (view.length > runStart) pieces.push(view.subarray(runStart));
  }
  if (!soaReplaced) return null;
  if (part.records.length > 0) pieces.push(recordsPiece(part.records, 0, part.records.length));
  const count = kept + part.records.length;
  return { count, pieces: pieces.length > MAX_PIECES ? [Buffer.concat(pieces)] : pieces };
}
