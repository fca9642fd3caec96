/**
 * CAA records (RFC 8659 §4.1): flags octet, tag (1–15 ASCII letters/digits, RFC 8659 §4.1.1) and a
 * value that runs to the end of the RDATA (no length octet, so it may exceed 255 octets).
 */
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataError } from './rdata-error.ts';
import { quoteOctets, tokenOctets } from './rdata-string-text.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_FLAGS = 0xff;
const MAX_TAG_OCTETS = 15;
const TAG = /^[A-Za-z0-9]{1,15}$/;

function tagError(tag: string): RdataError {
  return new RdataError(
    'tag',
    `CAA tag must be 1 to ${MAX_TAG_OCTETS} ASCII letters or digits (e.g. issue, issuewild, iodef), got "${tag}"`,
  );
}

export const caaCodec: RdataCodec = {
  parse(r) {
    const flags = r.int('flags', 'flags', MAX_FLAGS);
    const tagToken = r.next('tag', 'tag');
    if (tagToken.quoted || !TAG.test(tagToken.text)) throw tagError(tagToken.text);
    const value = tokenOctets(r.next('value', 'value'), 'value', 'CAA value');
    r.end();
    const tag = new TextEncoder().encode(tagToken.text);
    return new RdataWriter('CAA').u8(flags).u8(tag.length).raw(tag).raw(value).finish();
  },
  format(rdata) {
    const d = new RdataReader('CAA', rdata);
    const flags = d.u8();
    const tag = new TextDecoder('latin1').decode(d.charString());
    if (!TAG.test(tag)) throw tagError(tag);
    return `${flags} ${tag} ${quoteOctets(d.rest())}`;
  },
};
