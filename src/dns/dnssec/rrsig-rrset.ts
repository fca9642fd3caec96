/**
 * The encoded RRSIG RRset of one signature, as answers carry it: made once per signature RDATA
 * (a cached signature reuses its encoded RRset), the encoding ZoneSigner.signedObject stores for
 * RRsets signed by identity — the answer signer and the zone's pre-signed NSEC3 chain share it.
 */
import { encodeRRset, type RRset } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const rrsigSets = new WeakMap<Uint8Array, RRset>();

export function rrsigRRset(rdata: Uint8Array, ttl: number): RRset {
  let rs = rrsigSets.get(rdata);
  if (rs === undefined || rs.ttl !== ttl) {
    rs = encodeRRset(RR_TYPE.RRSIG, ttl, [rdata], []);
    rrsigSets.set(rdata, rs);
  }
  return rs;
}
