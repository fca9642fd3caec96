/**
 * Records that carry a digest or fingerprint in hex: DS and CDS (RFC 4034 §5, RFC 7344 §3.1), SSHFP
 * (RFC 4255 §3, RFC 6594) and TLSA (RFC 6698 §2). Whitespace is allowed inside the hex (RFC 4034
 * §5.3), so all remaining tokens form the digest; output is one upper-case hex token.
 */
import type { RdataCodec } from './rdata-codec-interface.ts';
import { readAlgorithm } from './rdata-algorithm-text.ts';
import { bytesToHex, hexToBytes } from './rdata-binary-text.ts';
import { RdataError } from './rdata-error.ts';
import type { RdataTokenReader } from './rdata-token-reader.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT8 = 0xff;
const MAX_UINT16 = 0xffff;

/** Digest lengths by DS digest type: SHA-1, SHA-256 (RFC 4509), GOST (RFC 5933), SHA-384 (RFC 6605). */
const DS_DIGEST_OCTETS: ReadonlyMap<number, number> = new Map([
  [1, 20],
  [2, 32],
  [3, 32],
  [4, 48],
]);
/** SSHFP fingerprint lengths: SHA-1 (RFC 4255), SHA-256 (RFC 6594). */
const SSHFP_FINGERPRINT_OCTETS: ReadonlyMap<number, number> = new Map([
  [1, 20],
  [2, 32],
]);
/** TLSA matching types: 0 full data (any length), 1 SHA-256, 2 SHA-512 (RFC 6698 §2.1.3). */
const TLSA_DATA_OCTETS: ReadonlyMap<number, number> = new Map([
  [1, 32],
  [2, 64],
]);
const MAX_TLSA_USAGE = 3;
const MAX_TLSA_SELECTOR = 1;
const MAX_TLSA_MATCHING = 2;

function readHex(r: RdataTokenReader, field: string, what: string): Uint8Array {
  const tokens = r.rest();
  if (tokens.length === 0) throw new RdataError(field, `${r.typeName} record is missing the ${what}`);
  const text = tokens.map((t) => t.text).join('');
  const bytes = hexToBytes(text);
  if (bytes === null || bytes.length === 0) {
    throw new RdataError(field, `${r.typeName} ${what} must be an even number of hex digits, got "${text}"`);
  }
  return bytes;
}

function checkLength(
  typeName: string,
  field: string,
  what: string,
  table: ReadonlyMap<number, number>,
  kind: number,
  kindName: string,
  bytes: Uint8Array,
): void {
  const expected = table.get(kind);
  if (expected !== undefined && bytes.length !== expected) {
    throw new RdataError(
      field,
      `${typeName} ${what} for ${kindName} ${kind} must be ${expected} octets (${expected * 2} hex digits), got ${bytes.length}`,
    );
  }
}

/** DS and CDS: key tag, algorithm, digest type, digest. */
export function dsCodec(typeName: string): RdataCodec {
  return {
    parse(r) {
      const keyTag = r.int('keyTag', 'key tag', MAX_UINT16);
      const algorithm = readAlgorithm(r);
      const digestType = r.int('digestType', 'digest type', MAX_UINT8);
      const digest = readHex(r, 'digest', 'digest');
      checkLength(typeName, 'digest', 'digest', DS_DIGEST_OCTETS, digestType, 'digest type', digest);
      return new RdataWriter(typeName).u16(keyTag).u8(algorithm).u8(digestType).raw(digest).finish();
    },
    format(rdata) {
      const d = new RdataReader(typeName, rdata);
      const keyTag = d.u16();
      const algorithm = d.u8();
      const digestType = d.u8();
      const digest = d.rest();
      if (digest.length === 0) throw new RdataError('digest', `${typeName} data has no digest`);
      checkLength(typeName, 'digest', 'digest', DS_DIGEST_OCTETS, digestType, 'digest type', digest);
      return `${keyTag} ${algorithm} ${digestType} ${bytesToHex(digest)}`;
    },
  };
}

export const sshfpCodec: RdataCodec = {
  parse(r) {
    const algorithm = r.int('algorithm', 'algorithm', MAX_UINT8);
    const fpType = r.int('fingerprintType', 'fingerprint type', MAX_UINT8);
    const fp = readHex(r, 'fingerprint', 'fingerprint');
    checkLength('SSHFP', 'fingerprint', 'fingerprint', SSHFP_FINGERPRINT_OCTETS, fpType, 'type', fp);
    return new RdataWriter('SSHFP').u8(algorithm).u8(fpType).raw(fp).finish();
  },
  format(rdata) {
    const d = new RdataReader('SSHFP', rdata);
    const algorithm = d.u8();
    const fpType = d.u8();
    const fp = d.rest();
    if (fp.length === 0) throw new RdataError('fingerprint', 'SSHFP data has no fingerprint');
    checkLength('SSHFP', 'fingerprint', 'fingerprint', SSHFP_FINGERPRINT_OCTETS, fpType, 'type', fp);
    return `${algorithm} ${fpType} ${bytesToHex(fp)}`;
  },
};

function checkTlsa(usage: number, selector: number, matching: number, data: Uint8Array): void {
  if (usage > MAX_TLSA_USAGE) {
    throw new RdataError('usage', `TLSA certificate usage must be an integer from 0 to ${MAX_TLSA_USAGE}`);
  }
  if (selector > MAX_TLSA_SELECTOR) {
    throw new RdataError('selector', `TLSA selector must be an integer from 0 to ${MAX_TLSA_SELECTOR}`);
  }
  if (matching > MAX_TLSA_MATCHING) {
    throw new RdataError(
      'matchingType',
      `TLSA matching type must be an integer from 0 to ${MAX_TLSA_MATCHING}`,
    );
  }
  if (data.length === 0) throw new RdataError('data', 'TLSA data has no certificate association data');
  checkLength(
    'TLSA',
    'data',
    'certificate association data',
    TLSA_DATA_OCTETS,
    matching,
    'matching type',
    data,
  );
}

export const tlsaCodec: RdataCodec = {
  parse(r) {
    const usage = r.int('usage', 'certificate usage', MAX_TLSA_USAGE);
    const selector = r.int('selector', 'selector', MAX_TLSA_SELECTOR);
    const matching = r.int('matchingType', 'matching type', MAX_TLSA_MATCHING);
    const data = readHex(r, 'data', 'certificate association data');
    checkTlsa(usage, selector, matching, data);
    return new RdataWriter('TLSA').u8(usage).u8(selector).u8(matching).raw(data).finish();
  },
  format(rdata) {
    const d = new RdataReader('TLSA', rdata);
    const usage = d.u8();
    const selector = d.u8();
    const matching = d.u8();
    const data = d.rest();
    checkTlsa(usage, selector, matching, data);
    return `${usage} ${selector} ${matching} ${bytesToHex(data)}`;
  },
};
