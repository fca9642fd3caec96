/** MX records (RFC 1035 §3.3.9): 16-bit preference and exchange host. */
import { nameToText } from '../name-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT16 = 0xffff;

export const mxCodec: RdataCodec = {
  parse(r) {
    const preference = r.int('preference', 'preference', MAX_UINT16);
    const exchange = r.name('exchange', 'mail exchange name');
    r.end();
    return new RdataWriter('MX').u16(preference).name(exchange).finish();
  },
  format(rdata) {
    const d = new RdataReader('MX', rdata);
    const preference = d.u16();
    const exchange = d.name();
    d.end();
    return `${preference} ${nameToText(exchange)}`;
  },
};
