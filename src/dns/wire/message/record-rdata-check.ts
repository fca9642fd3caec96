import { CLASS_IN } from './message-constants.ts';

/**
 * Shape check of the RDATA of a record inside a query message (after the question), as Knot 3.2
 * parses it: for the well-known types below the RDATA must have exactly the fields of its type
 * (RFC 1035 §3.3, §3.4; RFC 3596; RFC 2782; RFC 6672; RFC 4034 §3.1, §4.1), names possibly
 * compressed; any other type is opaque (RFC 3597). Empty RDATA passes this check (see
 * emptyRdataRejected). A failed check makes the message FORMERR, or dropped when nothing before the
 * record was read. (Rules checked against knotd 3.2.)
 */

/** Reads a possibly compressed name at `pos` (pointers strictly backwards); returns its end or -1. */
export type NameSkipper = (buf: Uint8Array, pos: number) => number;

const A_SIZE = 4;
const AAAA_SIZE = 16;
/** SOA: SERIAL, REFRESH, RETRY, EXPIRE, MINIMUM (RFC 1035 §3.3.13). */
const SOA_FIXED = 20;
/** MX/AFSDB/RT/KX: a 16-bit preference before the name. */
const PREFERENCE_SIZE = 2;
/** SRV: PRIORITY, WEIGHT, PORT (RFC 2782). */
const SRV_FIXED = 6;
/** RRSIG: TYPE COVERED … KEY TAG before the signer's name (RFC 4034 §3.1). */
const RRSIG_FIXED = 18;

/** Types with an RDATA descriptor in Knot 3.2 (empty RDATA in class IN is FORMERR for them). */
const KNOWN_TYPES: ReadonlySet<number> = new Set([
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 21, 24, 25, 28, 29, 33, 35, 36, 37, 39, 42, 43,
  44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 59, 60, 61, 62, 63, 64, 65, 99, 104, 105, 106, 107, 108, 109, 256,
  257,
]);

const enum Shape {
  Opaque,
  Fixed4,
  Fixed16,
  Name,
  TwoNames,
  Soa,
  PrefName,
  SrvName,
  Rrsig,
  NameThenAny,
}

function shapeOf(type: number): Shape {
  switch (type) {
    case 1:
      return Shape.Fixed4;
    case 28:
      return Shape.Fixed16;
    case 2: // NS
    case 3: // MD
    case 4: // MF
    case 5: // CNAME
    case 7: // MB
    case 8: // MG
    case 9: // MR
    case 12: // PTR
    case 39: // DNAME
      return Shape.Name;
    case 14: // MINFO
    case 17: // RP
      return Shape.TwoNames;
    case 6:
      return Shape.Soa;
    case 15: // MX
    case 18: // AFSDB
    case 21: // RT
    case 36: // KX
      return Shape.PrefName;
    case 33:
      return Shape.SrvName;
    case 46: // RRSIG
      return Shape.Rrsig;
    case 47: // NSEC
      return Shape.NameThenAny;
    default:
      return Shape.Opaque;
  }
}

/**
 * Empty RDATA of a type Knot knows, in class IN: the record is read (it counts as parsed) but the
 * message is then FORMERR (Knot 3.2).
 */
export function emptyRdataRejected(type: number, cls: number): boolean {
  return cls === CLASS_IN && KNOWN_TYPES.has(type);
}

/** End of the name at `p` when it lies within the RDATA (ends by `end`), else -1. */
function nameAt(buf: Uint8Array, p: number, end: number, skipName: NameSkipper): number {
  const e = skipName(buf, p);
  return e < 0 || e > end ? -1 : e;
}

/** True when the RDATA at buf[pos, pos + len) is well formed for `type` (see file comment). */
export function rdataShapeValid(
  buf: Uint8Array,
  pos: number,
  len: number,
  type: number,
  cls: number,
  skipName: NameSkipper,
): boolean {
  if (len === 0) return true; // see emptyRdataRejected()
  const end = pos + len;
  switch (shapeOf(type)) {
    case Shape.Opaque:
      return true;
    case Shape.Fixed4:
      return len === A_SIZE;
    case Shape.Fixed16:
      return len === AAAA_SIZE;
    case Shape.Name:
      return nameAt(buf, pos, end, skipName) === end;
    case Shape.TwoNames: {
      const e = nameAt(buf, pos, end, skipName);
      return e >= 0 && nameAt(buf, e, end, skipName) === end;
    }
    case Shape.Soa: {
      const a = nameAt(buf, pos, end, skipName);
      const b = a < 0 ? -1 : nameAt(buf, a, end, skipName);
      return b >= 0 && b + SOA_FIXED === end;
    }
    case Shape.PrefName:
      return len > PREFERENCE_SIZE && nameAt(buf, pos + PREFERENCE_SIZE, end, skipName) === end;
    case Shape.SrvName:
      return len > SRV_FIXED && nameAt(buf, pos + SRV_FIXED, end, skipName) === end;
    case Shape.Rrsig:
      return len > RRSIG_FIXED && nameAt(buf, pos + RRSIG_FIXED, end, skipName) >= 0;
    case Shape.NameThenAny:
      return nameAt(buf, pos, end, skipName) >= 0;
  }
}
