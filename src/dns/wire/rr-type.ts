/**
 * The one vocabulary of RR type codes in the data plane (RFC 1035 §3.2.2 and the IANA "Resource
 * Record (RR) TYPEs" registry), and their presentation mnemonics, including the RFC 3597 §5
 * `TYPEnnn` form for types without one.
 */
export const RR_TYPE = {
  /** Reserved (RFC 6895 §3.1): a query for it is answered NOTIMP. */
  RESERVED_0: 0,
  A: 1,
  NS: 2,
  /** Obsolete (RFC 1035 §3.3.4): its RDATA name may still be compressed (RFC 3597 §4). */
  MD: 3,
  /** Obsolete (RFC 1035 §3.3.5), as MD. */
  MF: 4,
  CNAME: 5,
  SOA: 6,
  /** Experimental mailbox types of RFC 1035 §3.3.3, 3.3.6, 3.3.8 (compressible names, RFC 3597 §4). */
  MB: 7,
  MG: 8,
  MR: 9,
  PTR: 12,
  HINFO: 13,
  /** RFC 1035 §3.3.7: two compressible names. */
  MINFO: 14,
  MX: 15,
  TXT: 16,
  /** RFC 1183 §2.2, 1.1, 3.3 and RFC 2163 §4: names in their RDATA are canonicalized (RFC 4034 §6.2). */
  RP: 17,
  AFSDB: 18,
  RT: 21,
  PX: 26,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  /** RFC 2230 §3: as RP. */
  KX: 36,
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
  /** RFC 8945: a meta type, only ever the last RR of a message. */
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  CAA: 257,
} as const;

export type RrTypeName = keyof typeof RR_TYPE;

/**
 * Named above for the code that handles them on the wire, but neither read nor written by
 * mnemonic: zone files, the API and the metrics show them as `TYPEnnn` (RFC 3597 §5), so a zone
 * file cannot hold an obsolete MD or a TSIG record by name.
 */
const WIRE_ONLY: ReadonlySet<RrTypeName> = new Set<RrTypeName>([
  'RESERVED_0',
  'MD',
  'MF',
  'MB',
  'MG',
  'MR',
  'MINFO',
  'RP',
  'AFSDB',
  'RT',
  'PX',
  'KX',
  'TSIG',
]);

/** TYPE values are 16-bit (RFC 1035 §3.2.2). */
const MAX_TYPE = 0xffff;

const CODE_BY_NAME = new Map<string, number>(
  Object.entries(RR_TYPE).filter(([name]) => !WIRE_ONLY.has(name as RrTypeName)),
);
const NAME_BY_CODE = new Map<number, string>([...CODE_BY_NAME].map(([name, code]) => [code, name]));

/** RFC 3597 §5: `TYPE` followed by a decimal number without sign or leading zeros. */
const GENERIC_TYPE = /^TYPE(0|[1-9][0-9]{0,4})$/i;

/** Mnemonic (case-insensitive) or `TYPEnnn`; null when it is neither. */
export function typeFromText(s: string): number | null {
  const known = CODE_BY_NAME.get(s.toUpperCase());
  if (known !== undefined) return known;
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
