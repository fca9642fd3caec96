/** TXT records (RFC 1035 §3.3.14): one or more <character-string>s. */
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataError } from './rdata-error.ts';
import { characterString, quoteOctets } from './rdata-string-text.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

export const txtCodec: RdataCodec = {
  parse(r) {
    const tokens = r.rest();
    if (tokens.length === 0) throw new RdataError('text', 'TXT record needs at least one string');
    const w = new RdataWriter('TXT');
    tokens.forEach((t, i) => {
      const s = characterString(t, 'text', `TXT string ${i + 1}`);
      w.u8(s.length).raw(s);
    });
    return w.finish();
  },
  format(rdata) {
    if (rdata.length === 0) throw new RdataError('text', 'TXT data holds no string');
    const d = new RdataReader('TXT', rdata);
    const parts: string[] = [];
    while (d.remaining > 0) parts.push(quoteOctets(d.charString()));
    return parts.join(' ');
  },
};
