/** A (RFC 1035 §3.4.1) and AAAA (RFC 3596 §2.2) records. */
import { bytesToIpv4, bytesToIpv6, ipv4ToBytes, ipv6ToBytes } from '../../../net/ip-address-text.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataError } from './rdata-error.ts';

const IPV4_OCTETS = 4;
const IPV6_OCTETS = 16;

export const aCodec: RdataCodec = {
  parse(r) {
    const { text } = r.next('address', 'IPv4 address');
    const bytes = ipv4ToBytes(text);
    if (bytes === null) throw new RdataError('address', `A record needs an IPv4 address, got "${text}"`);
    r.end();
    return bytes;
  },
  format(rdata) {
    if (rdata.length !== IPV4_OCTETS) {
      throw new RdataError('address', `A data must be ${IPV4_OCTETS} octets, got ${rdata.length}`);
    }
    return bytesToIpv4(rdata);
  },
};

export const aaaaCodec: RdataCodec = {
  parse(r) {
    const { text } = r.next('address', 'IPv6 address');
    const bytes = ipv6ToBytes(text);
    if (bytes === null) {
      const hint = ipv4ToBytes(text) !== null ? ' (this is an IPv4 address: use an A record)' : '';
      throw new RdataError('address', `AAAA record needs an IPv6 address, got "${text}"${hint}`);
    }
    r.end();
    return bytes;
  },
  format(rdata) {
    if (rdata.length !== IPV6_OCTETS) {
      throw new RdataError('address', `AAAA data must be ${IPV6_OCTETS} octets, got ${rdata.length}`);
    }
    return bytesToIpv6(rdata);
  },
};
