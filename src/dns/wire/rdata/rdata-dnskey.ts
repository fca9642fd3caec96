/** DNSKEY (RFC 4034 §2) and CDNSKEY (RFC 7344 §3.2): flags, protocol 3, algorithm, base64 key. */
import type { RdataCodec } from './rdata-codec-interface.ts';
import { readAlgorithm } from './rdata-algorithm-text.ts';
import { base64ToBytes, bytesToBase64 } from './rdata-binary-text.ts';
import { RdataError } from './rdata-error.ts';
import type { RdataTokenReader } from './rdata-token-reader.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT16 = 0xffff;
const MAX_UINT8 = 0xff;
/** RFC 4034 §2.1.2: the protocol field MUST be 3. */
const DNSSEC_PROTOCOL = 3;

/** Base64 that may be split over several tokens (RFC 4034 §2.2 allows whitespace). */
export function readBase64(r: RdataTokenReader, field: string, what: string): Uint8Array {
  const tokens = r.rest();
  if (tokens.length === 0) throw new RdataError(field, `${r.typeName} record is missing the ${what}`);
  const text = tokens.map((t) => t.text).join('');
  const bytes = base64ToBytes(text);
  if (bytes === null || bytes.length === 0) {
    throw new RdataError(field, `${r.typeName} ${what} must be base64, got "${text}"`);
  }
  return bytes;
}

export function dnskeyCodec(typeName: string): RdataCodec {
  return {
    parse(r) {
      const flags = r.int('flags', 'flags', MAX_UINT16);
      const protocol = r.int('protocol', 'protocol', MAX_UINT8);
      if (protocol !== DNSSEC_PROTOCOL) throw new RdataError('protocol', `${typeName} protocol must be 3`);
      const algorithm = readAlgorithm(r);
      const key = readBase64(r, 'publicKey', 'public key');
      return new RdataWriter(typeName).u16(flags).u8(protocol).u8(algorithm).raw(key).finish();
    },
    format(rdata) {
      const d = new RdataReader(typeName, rdata);
      const flags = d.u16();
      const protocol = d.u8();
      if (protocol !== DNSSEC_PROTOCOL) throw new RdataError('protocol', `${typeName} protocol must be 3`);
      const algorithm = d.u8();
      const key = d.rest();
      if (key.length === 0) throw new RdataError('publicKey', `${typeName} data has no public key`);
      return `${flags} ${protocol} ${algorithm} ${bytesToBase64(key)}`;
    },
  };
}
