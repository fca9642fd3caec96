/**
 * A zone's records in the snapshot file: the data plane's packed layout (src/dns/zone/
 * packed-records.ts). The snapshot file applies changes to a few names to a zone's records in it
 * (packedWithNames) as it copies them from the file it wrote last into the next.
 */
import type { ZoneNamesData } from '../../dns/index.ts';
import { RR_TYPE, SAME_OWNER, recordsPiece, writeRecord } from '../../dns/index.ts';

/** Past this many pieces (a few per change applied), a zone's pieces are joined into one. */
const MAX_PIECES = 256;

/** A zone's records in the layout: `count` records over `pieces`, read as one stream. */
export interface PackedRecords {
  readonly count: number;
  readonly pieces: readonly Uint8Array[];
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
