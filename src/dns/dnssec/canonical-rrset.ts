/**
 * The canonical form of an RRset for signing and verifying (RFC 4034 §6.2 and §6.3, with RFC 6840
 * §5.1 removing NSEC from the list of types whose RDATA names are lower-cased; RFC 3597 §7 fixes
 * the list for later types): owner lower-cased and uncompressed, names inside the RDATA of the
 * listed types lower-cased, records sorted by RDATA as unsigned octet strings, duplicates removed.
 */
import { RR_TYPE } from '../wire/rr-type.ts';

const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const CASE_BIT = 0x20;
const LABEL_MAX = 63;

/** Lower-cases the name that starts at `pos` in place; returns the offset after it. */
function lowerNameAt(buf: Uint8Array, pos: number): number {
  let p = pos;
  for (;;) {
    const len = buf[p];
    if (len === undefined || len > LABEL_MAX) throw new Error('bad name in rdata');
    if (len === 0) return p + 1;
    for (let i = p + 1; i <= p + len; i++) {
      const b = buf[i];
      if (b === undefined) throw new Error('truncated name in rdata');
      if (b >= UPPER_A && b <= UPPER_Z) buf[i] = b | CASE_BIT;
    }
    p += len + 1;
  }
}

/** Skips one <character-string> (RFC 1035 §3.3). */
function skipString(buf: Uint8Array, pos: number): number {
  const len = buf[pos];
  if (len === undefined) throw new Error('truncated string in rdata');
  return pos + 1 + len;
}

/**
 * Where the names of each listed type sit: `fixed` octets to skip first, then `names` names
 * (NAPTR: three character-strings after four octets, then one name).
 */
const NAME_LAYOUT: ReadonlyMap<number, { fixed: number; names: number }> = new Map([
  [RR_TYPE.NS, { fixed: 0, names: 1 }],
  [RR_TYPE.MD, { fixed: 0, names: 1 }],
  [RR_TYPE.MF, { fixed: 0, names: 1 }],
  [RR_TYPE.CNAME, { fixed: 0, names: 1 }],
  [RR_TYPE.SOA, { fixed: 0, names: 2 }],
  [RR_TYPE.MB, { fixed: 0, names: 1 }],
  [RR_TYPE.MG, { fixed: 0, names: 1 }],
  [RR_TYPE.MR, { fixed: 0, names: 1 }],
  [RR_TYPE.PTR, { fixed: 0, names: 1 }],
  [RR_TYPE.MINFO, { fixed: 0, names: 2 }],
  [RR_TYPE.MX, { fixed: 2, names: 1 }],
  [RR_TYPE.RP, { fixed: 0, names: 2 }],
  [RR_TYPE.AFSDB, { fixed: 2, names: 1 }],
  [RR_TYPE.RT, { fixed: 2, names: 1 }],
  [RR_TYPE.PX, { fixed: 2, names: 2 }],
  [RR_TYPE.SRV, { fixed: 6, names: 1 }],
  [RR_TYPE.KX, { fixed: 2, names: 1 }],
  [RR_TYPE.DNAME, { fixed: 0, names: 1 }],
  [RR_TYPE.RRSIG, { fixed: 18, names: 1 }], // the signer's name
]);
const NAPTR_FIXED = 4;

/** Canonical RDATA: a copy with the embedded names lower-cased for the listed types. */
export function canonicalRdata(type: number, rdata: Uint8Array): Uint8Array {
  const layout = NAME_LAYOUT.get(type);
  if (!layout && type !== RR_TYPE.NAPTR) return rdata;
  const out = Uint8Array.from(rdata);
  if (type === RR_TYPE.NAPTR) {
    let p = NAPTR_FIXED;
    for (let i = 0; i < 3; i++) p = skipString(out, p);
    lowerNameAt(out, p);
    return out;
  }
  let p = layout!.fixed;
  for (let i = 0; i < layout!.names; i++) p = lowerNameAt(out, p);
  return out;
}

/** RFC 4034 §6.3: unsigned octet order, a shorter prefix first. */
export function compareRdata(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/** Canonical RDATAs of an RRset, sorted, without duplicates. */
export function canonicalRdatas(type: number, rdatas: readonly Uint8Array[]): Uint8Array[] {
  const sorted = rdatas.map((r) => canonicalRdata(type, r)).sort(compareRdata);
  return sorted.filter((r, i) => i === 0 || compareRdata(sorted[i - 1]!, r) !== 0);
}
