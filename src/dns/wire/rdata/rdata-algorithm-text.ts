/**
 * DNSSEC algorithm field: a number or a mnemonic (RFC 4034 §2.2, §5.3; IANA "DNS Security Algorithm
 * Numbers"). Output is always the number, as BIND and Knot print it.
 */
import type { RdataTokenReader } from './rdata-token-reader.ts';

const MAX_UINT8 = 0xff;

const ALGORITHM_BY_MNEMONIC: Readonly<Record<string, number>> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  'DSA-NSEC3-SHA1': 6,
  'RSASHA1-NSEC3-SHA1': 7,
  RSASHA256: 8,
  RSASHA512: 10,
  'ECC-GOST': 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
};

export function readAlgorithm(r: RdataTokenReader): number {
  return r.intOrMnemonic('algorithm', 'algorithm', MAX_UINT8, ALGORITHM_BY_MNEMONIC);
}
