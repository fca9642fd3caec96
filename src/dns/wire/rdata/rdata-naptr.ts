/**
 * NAPTR records (RFC 3403 §4.1): order, preference, flags, services, regexp, replacement. Flags are
 * single alphanumeric characters (RFC 3403 §4.1); the regexp and replacement are not both used,
 * but a zone may still carry both, so that is not enforced here.
 */
import { nameToText } from '../name-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataError } from './rdata-error.ts';
import { characterString, quoteOctets } from './rdata-string-text.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT16 = 0xffff;
const FLAGS = /^[A-Za-z0-9]*$/;

function checkFlags(flags: Uint8Array): void {
  const text = new TextDecoder('latin1').decode(flags);
  if (!FLAGS.test(text)) {
    throw new RdataError('flags', `NAPTR flags must be ASCII letters or digits, got "${text}"`);
  }
}

export const naptrCodec: RdataCodec = {
  parse(r) {
    const order = r.int('order', 'order', MAX_UINT16);
    const preference = r.int('preference', 'preference', MAX_UINT16);
    const flags = characterString(r.next('flags', 'flags'), 'flags', 'NAPTR flags');
    checkFlags(flags);
    const services = characterString(r.next('services', 'services'), 'services', 'NAPTR services');
    const regexp = characterString(r.next('regexp', 'regexp'), 'regexp', 'NAPTR regexp');
    const replacement = r.name('replacement', 'replacement name');
    r.end();
    const w = new RdataWriter('NAPTR').u16(order).u16(preference);
    for (const s of [flags, services, regexp]) w.u8(s.length).raw(s);
    return w.name(replacement).finish();
  },
  format(rdata) {
    const d = new RdataReader('NAPTR', rdata);
    const order = d.u16();
    const preference = d.u16();
    const flags = d.charString();
    checkFlags(flags);
    const services = d.charString();
    const regexp = d.charString();
    const replacement = d.name();
    d.end();
    return [
      order,
      preference,
      quoteOctets(flags),
      quoteOctets(services),
      quoteOctets(regexp),
      nameToText(replacement),
    ].join(' ');
  },
};
