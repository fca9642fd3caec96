/**
 * The canonical form of an RRset for signing and verifying (RFC 4034 §6.2 and §6.3, with RFC 6840
 * §5.1 removing NSEC from the list of types whose RDATA names are lower-cased; RFC 3597 §7 fixes
 * the list for later types): owner lower-cased and uncompressed, names inside the RDATA of the
 * listed types lower-cased, records sorted by RDATA as unsigned octet strings, duplicates removed.
 */

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
  [2, { fixed: 0, names: 1 }], // NS
  [3, { fixed: 0, names: 1 }], // MD
  [4, { fixed: 0, names: 1 }], // MF
  [5, { fixed: 0, names: 1 }], // CNAME
  [6, { fixed: 0, names: 2 }], // SOA
  [7, { fixed: 0, names: 1 }], // MB
  [8, { fixed: 0, names: 1 }], // MG
  [9, { fixed: 0, names: 1 }], // MR
  [12, { fixed: 0, names: 1 }], // PTR
  [14, { fixed: 0, names: 2 }], // MINFO
  [15, { fixed: 2, names: 1 }], // MX
  [17, { fixed: 0, names: 2 }], // RP
  [18, { fixed: 2, names: 1 }], // AFSDB
  [21, { fixed: 2, names: 1 }], // RT
  [26, { fixed: 2, names: 2 }], // PX
  [33, { fixed: 6, names: 1 }], // SRV
  [36, { fixed: 2, names: 1 }], // KX
  [39, { fixed: 0, names: 1 }], // DNAME
  [46, { fixed: 18, names: 1 }], // RRSIG (signer's name)
]);
const TYPE_NAPTR = 35;
const NAPTR_FIXED = 4;

/** Canonical RDATA: a copy with the embedded names lower-cased for the listed types. */
export function canonicalRdata(type: number, rdata: Uint8Array): Uint8Array {
  const layout = NAME_LAYOUT.get(type);
  if (!layout && type !== TYPE_NAPTR) return rdata;
  const out = Uint8Array.from(rdata);
  if (type === TYPE_NAPTR) {
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
