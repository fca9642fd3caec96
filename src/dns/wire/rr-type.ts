/**
 * RR type codes (RFC 1035 §3.2.2 and the IANA "Resource Record (RR) TYPEs" registry) and their
 * presentation mnemonics, including the RFC 3597 §5 `TYPEnnn` form for types without one.
 */
export const RR_TYPE = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  CDS: 59,
  CDNSKEY: 60,
  SVCB: 64,
  HTTPS: 65,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  CAA: 257,
} as const;

export type RrTypeName = keyof typeof RR_TYPE;

/** TYPE values are 16-bit (RFC 1035 §3.2.2). */
const MAX_TYPE = 0xffff;

const NAME_BY_CODE = new Map<number, string>(Object.entries(RR_TYPE).map(([name, code]) => [code, name]));

/** RFC 3597 §5: `TYPE` followed by a decimal number without sign or leading zeros. */
const GENERIC_TYPE = /^TYPE(0|[1-9][0-9]{0,4})$/i;

/** Mnemonic (case-insensitive) or `TYPEnnn`; null when it is neither. */
export function typeFromText(s: string): number | null {
  const upper = s.toUpperCase();
  if (Object.hasOwn(RR_TYPE, upper)) return RR_TYPE[upper as RrTypeName];
  const m = GENERIC_TYPE.exec(s);
  if (m === null) return null;
  const n = Number(m[1]);
  return n <= MAX_TYPE ? n : null;
}

/** Mnemonic when we know one, else the RFC 3597 `TYPEnnn` form. */
export function typeToText(n: number): string {
  return NAME_BY_CODE.get(n) ?? `TYPE${n}`;
}

/**
 * Meta and query-only types (RFC 6895 §3.1: 128–255 are Q/Meta; OPT is RFC 6891) that can never be
 * stored as zone data.
 */
export function isMetaType(n: number): boolean {
  return n === RR_TYPE.OPT || (n >= 128 && n <= 255) || n === 0;
}
