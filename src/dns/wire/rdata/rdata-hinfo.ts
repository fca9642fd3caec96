/** HINFO records (RFC 1035 §3.3.2): CPU and OS <character-string>s (RFC 8482 reuses it for ANY). */
import type { RdataCodec } from './rdata-codec-interface.ts';
import { characterString, quoteOctets } from './rdata-string-text.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

export const hinfoCodec: RdataCodec = {
  parse(r) {
    const cpu = characterString(r.next('cpu', 'CPU string'), 'cpu', 'HINFO CPU');
    const os = characterString(r.next('os', 'OS string'), 'os', 'HINFO OS');
    r.end();
    return new RdataWriter('HINFO').u8(cpu.length).raw(cpu).u8(os.length).raw(os).finish();
  },
  format(rdata) {
    const d = new RdataReader('HINFO', rdata);
    const cpu = d.charString();
    const os = d.charString();
    d.end();
    return `${quoteOctets(cpu)} ${quoteOctets(os)}`;
  },
};
