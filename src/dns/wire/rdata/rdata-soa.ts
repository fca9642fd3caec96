/**
 * SOA records (RFC 1035 §3.3.13): MNAME RNAME SERIAL REFRESH RETRY EXPIRE MINIMUM. The four timers
 * accept BIND units (`1h`, `2w`); the serial is a plain 32-bit number (RFC 1982 arithmetic).
 */
import { nameToText } from '../name-text.ts';
import { MAX_UINT32 } from '../ttl-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

export const soaCodec: RdataCodec = {
  parse(r) {
    const mname = r.name('mname', 'primary name server (MNAME)');
    const rname = r.name('rname', 'responsible mailbox (RNAME)');
    const serial = r.int('serial', 'serial', MAX_UINT32);
    const refresh = r.duration('refresh', 'refresh', MAX_UINT32);
    const retry = r.duration('retry', 'retry', MAX_UINT32);
    const expire = r.duration('expire', 'expire', MAX_UINT32);
    const minimum = r.duration('minimum', 'minimum', MAX_UINT32);
    r.end();
    return new RdataWriter('SOA')
      .name(mname)
      .name(rname)
      .u32(serial)
      .u32(refresh)
      .u32(retry)
      .u32(expire)
      .u32(minimum)
      .finish();
  },
  format(rdata) {
    const d = new RdataReader('SOA', rdata);
    const mname = d.name();
    const rname = d.name();
    const numbers = [d.u32(), d.u32(), d.u32(), d.u32(), d.u32()];
    d.end();
    return `${nameToText(mname)} ${nameToText(rname)} ${numbers.join(' ')}`;
  },
};
