/** SRV records (RFC 2782): priority, weight, port, target; a target of "." means "no service". */
import { nameToText } from '../name-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT16 = 0xffff;

export const srvCodec: RdataCodec = {
  parse(r) {
    const priority = r.int('priority', 'priority', MAX_UINT16);
    const weight = r.int('weight', 'weight', MAX_UINT16);
    const port = r.int('port', 'port', MAX_UINT16);
    const target = r.name('target', 'target name');
    r.end();
    return new RdataWriter('SRV').u16(priority).u16(weight).u16(port).name(target).finish();
  },
  format(rdata) {
    const d = new RdataReader('SRV', rdata);
    const priority = d.u16();
    const weight = d.u16();
    const port = d.u16();
    const target = d.name();
    d.end();
    return `${priority} ${weight} ${port} ${nameToText(target)}`;
  },
};
