/**
 * RRSIG records (RFC 4034 §3): type covered, algorithm, labels, original TTL, expiration, inception,
 * key tag, signer, signature. Times are YYYYMMDDHHmmSS (UTC) or plain seconds (RFC 4034 §3.2).
 */
import { nameToText } from '../name-text.ts';
import { typeFromText, typeToText } from '../rr-type.ts';
import { MAX_UINT32 } from '../ttl-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { readAlgorithm } from './rdata-algorithm-text.ts';
import { bytesToBase64 } from './rdata-binary-text.ts';
import { readBase64 } from './rdata-dnskey.ts';
import { RdataError } from './rdata-error.ts';
import type { RdataTokenReader } from './rdata-token-reader.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT8 = 0xff;
const MAX_UINT16 = 0xffff;
const TIMESTAMP = /^([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})$/;
const DECIMAL = /^[0-9]{1,10}$/;

function readTime(r: RdataTokenReader, field: string, what: string): number {
  const { text } = r.next(field, what);
  const m = TIMESTAMP.exec(text);
  if (m !== null) {
    const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    const back = new Date(ms);
    const seconds = ms / 1000;
    if (
      back.getUTCFullYear() === y &&
      back.getUTCMonth() === mo - 1 &&
      back.getUTCDate() === d &&
      h < 24 &&
      mi < 60 &&
      s < 60
    ) {
      if (seconds >= 0 && seconds <= MAX_UINT32) return seconds;
    }
  } else if (DECIMAL.test(text) && Number(text) <= MAX_UINT32) {
    return Number(text);
  }
  throw new RdataError(
    field,
    `RRSIG ${what} must be YYYYMMDDHHmmSS (UTC, 1970–2106) or seconds, got "${text}"`,
  );
}

function timeToText(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export const rrsigCodec: RdataCodec = {
  parse(r) {
    const coveredText = r.next('typeCovered', 'type covered').text;
    const covered = typeFromText(coveredText);
    if (covered === null)
      throw new RdataError('typeCovered', `RRSIG type covered "${coveredText}" is not a type`);
    const algorithm = readAlgorithm(r);
    const labels = r.int('labels', 'labels', MAX_UINT8);
    const originalTtl = r.int('originalTtl', 'original TTL', MAX_UINT32);
    const expiration = readTime(r, 'expiration', 'expiration');
    const inception = readTime(r, 'inception', 'inception');
    const keyTag = r.int('keyTag', 'key tag', MAX_UINT16);
    const signer = r.name('signer', "signer's name");
    const signature = readBase64(r, 'signature', 'signature');
    return new RdataWriter('RRSIG')
      .u16(covered)
      .u8(algorithm)
      .u8(labels)
      .u32(originalTtl)
      .u32(expiration)
      .u32(inception)
      .u16(keyTag)
      .name(signer)
      .raw(signature)
      .finish();
  },
  format(rdata) {
    const d = new RdataReader('RRSIG', rdata);
    const covered = typeToText(d.u16());
    const algorithm = d.u8();
    const labels = d.u8();
    const originalTtl = d.u32();
    const expiration = timeToText(d.u32());
    const inception = timeToText(d.u32());
    const keyTag = d.u16();
    const signer = nameToText(d.name());
    const signature = d.rest();
    if (signature.length === 0) throw new RdataError('signature', 'RRSIG data has no signature');
    return [
      covered,
      algorithm,
      labels,
      originalTtl,
      expiration,
      inception,
      keyTag,
      signer,
      bytesToBase64(signature),
    ].join(' ');
  },
};
