/**
 * NSEC (RFC 4034 §4), NSEC3 (RFC 5155 §3) and NSEC3PARAM (RFC 5155 §4). The salt is hex or `-` when
 * empty (RFC 5155 §3.3); the next hashed owner is unpadded base32hex.
 */
import { nameToText } from '../name-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { base32hexToBytes, bytesToBase32hex, bytesToHex, hexToBytes } from './rdata-binary-text.ts';
import { RdataError } from './rdata-error.ts';
import type { RdataTokenReader } from './rdata-token-reader.ts';
import { parseTypeList, readTypeBitmap, typeListToText, writeTypeBitmap } from './rdata-type-bitmap.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT8 = 0xff;
const MAX_UINT16 = 0xffff;
/** Salt and hash lengths are one octet (RFC 5155 §3.2). */
const MAX_FIELD_OCTETS = 0xff;

export const nsecCodec: RdataCodec = {
  parse(r) {
    const next = r.name('nextName', 'next domain name');
    const types = parseTypeList('NSEC', r.rest());
    const w = new RdataWriter('NSEC').name(next);
    writeTypeBitmap(w, types);
    return w.finish();
  },
  format(rdata) {
    const d = new RdataReader('NSEC', rdata);
    const next = nameToText(d.name());
    const types = readTypeBitmap('NSEC', d);
    return types.length === 0 ? next : `${next} ${typeListToText(types)}`;
  },
};

interface Nsec3Params {
  hash: number;
  flags: number;
  iterations: number;
  salt: Uint8Array;
}

function readParams(r: RdataTokenReader): Nsec3Params {
  const hash = r.int('hashAlgorithm', 'hash algorithm', MAX_UINT8);
  const flags = r.int('flags', 'flags', MAX_UINT8);
  const iterations = r.int('iterations', 'iterations', MAX_UINT16);
  const saltText = r.next('salt', 'salt').text;
  const salt = saltText === '-' ? new Uint8Array(0) : hexToBytes(saltText);
  if (salt === null || salt.length > MAX_FIELD_OCTETS || (saltText !== '-' && salt.length === 0)) {
    throw new RdataError(
      'salt',
      `${r.typeName} salt must be "-" or up to 255 octets of hex, got "${saltText}"`,
    );
  }
  return { hash, flags, iterations, salt };
}

function writeParams(w: RdataWriter, p: Nsec3Params): RdataWriter {
  return w.u8(p.hash).u8(p.flags).u16(p.iterations).u8(p.salt.length).raw(p.salt);
}

function decodeParams(d: RdataReader): Nsec3Params {
  return { hash: d.u8(), flags: d.u8(), iterations: d.u16(), salt: d.charString() };
}

function paramsToText(p: Nsec3Params): string {
  return `${p.hash} ${p.flags} ${p.iterations} ${p.salt.length === 0 ? '-' : bytesToHex(p.salt)}`;
}

export const nsec3Codec: RdataCodec = {
  parse(r) {
    const params = readParams(r);
    const nextText = r.next('nextHashedOwner', 'next hashed owner name').text;
    const next = base32hexToBytes(nextText);
    if (next === null || next.length === 0 || next.length > MAX_FIELD_OCTETS) {
      throw new RdataError('nextHashedOwner', `NSEC3 next hashed owner must be base32hex, got "${nextText}"`);
    }
    const types = parseTypeList('NSEC3', r.rest());
    const w = writeParams(new RdataWriter('NSEC3'), params).u8(next.length).raw(next);
    writeTypeBitmap(w, types);
    return w.finish();
  },
  format(rdata) {
    const d = new RdataReader('NSEC3', rdata);
    const params = decodeParams(d);
    const next = d.charString();
    if (next.length === 0)
      throw new RdataError('nextHashedOwner', 'NSEC3 data has an empty next hashed owner');
    const types = readTypeBitmap('NSEC3', d);
    const head = `${paramsToText(params)} ${bytesToBase32hex(next)}`;
    return types.length === 0 ? head : `${head} ${typeListToText(types)}`;
  },
};

export const nsec3paramCodec: RdataCodec = {
  parse(r) {
    const params = readParams(r);
    r.end();
    return writeParams(new RdataWriter('NSEC3PARAM'), params).finish();
  },
  format(rdata) {
    const d = new RdataReader('NSEC3PARAM', rdata);
    const params = decodeParams(d);
    d.end();
    return paramsToText(params);
  },
};
