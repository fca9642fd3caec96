import type { RdataTokenReader } from './rdata-token-reader.ts';

/** Presentation ↔ wire conversion for one RR type. Both directions throw RdataError. */
export interface RdataCodec {
  /** Reads all tokens (and must use them all) into uncompressed wire RDATA. */
  parse(r: RdataTokenReader): Uint8Array;
  /** Canonical presentation form; rejects malformed wire data. */
  format(rdata: Uint8Array): string;
}
