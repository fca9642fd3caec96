/**
 * Records whose RDATA is a single domain name: NS (RFC 1035 §3.3.11), CNAME (§3.3.1), PTR (§3.3.12)
 * and DNAME (RFC 6672 §2.1).
 */
import { nameToText } from '../name-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

export function domainCodec(typeName: string, what: string): RdataCodec {
  return {
    parse(r) {
      const target = r.name('target', what);
      r.end();
      return new RdataWriter(typeName).name(target).finish();
    },
    format(rdata) {
      const d = new RdataReader(typeName, rdata);
      const target = d.name();
      d.end();
      return nameToText(target);
    },
  };
}

export const nsCodec = domainCodec('NS', 'name server name');
export const cnameCodec = domainCodec('CNAME', 'target name');
export const ptrCodec = domainCodec('PTR', 'target name');
export const dnameCodec = domainCodec('DNAME', 'target name');
