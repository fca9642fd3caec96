/**
 * The DNSSEC records a signed zone publishes at its apex, derived from its keys: DNSKEY (every key
 * but the withdrawn), CDS (digest type 2) and CDNSKEY for each KSK the parent should have a DS of
 * (the active one, and the incoming one of a KSK rollover; RFC 7344 §3, RFC 7583 §3.3), or their
 * RFC 8078 §4 delete forms while signing is being turned off; and the DS the owner gives the parent.
 */
import {
  CDNSKEY_DELETE_RDATA,
  CDS_DELETE_RDATA,
  DS_DIGEST_SHA256,
  RR_TYPE,
  dsRdata,
  wireNameFromText,
} from '../../../dns/index.ts';
import type { ZoneRecordData } from '../../../dns/index.ts';
import type { StoredKey } from './dnssec-repository.ts';

export function apexDnssecRecords(
  domain: string,
  ttl: number,
  keys: readonly StoredKey[],
  disabling: boolean,
): ZoneRecordData[] {
  const records: ZoneRecordData[] = keys.map((k) => ({
    name: domain,
    type: RR_TYPE.DNSKEY,
    ttl,
    rdata: k.dnskey,
  }));
  if (disabling) {
    records.push({ name: domain, type: RR_TYPE.CDS, ttl, rdata: CDS_DELETE_RDATA });
    records.push({ name: domain, type: RR_TYPE.CDNSKEY, ttl, rdata: CDNSKEY_DELETE_RDATA });
  } else {
    for (const ksk of parentKsks(keys)) {
      records.push({
        name: domain,
        type: RR_TYPE.CDS,
        ttl,
        rdata: dsRdata(wireNameFromText(domain).wire, ksk.dnskey),
      });
      records.push({ name: domain, type: RR_TYPE.CDNSKEY, ttl, rdata: ksk.dnskey });
    }
  }
  return records;
}

/** The KSKs the parent should hold a DS of, oldest first: the active one and an incoming one. */
export function parentKsks(keys: readonly StoredKey[]): StoredKey[] {
  return keys.filter((k) => k.role === 'ksk' && (k.state === 'active' || k.state === 'published'));
}

/** Presentation form of the DS for `dnskey` ("example.com. 3600 IN DS 12345 13 2 <hex>"). */
export function dsRecordText(domain: string, ttl: number, dnskey: Uint8Array): string {
  const ds = Buffer.from(dsRdata(wireNameFromText(domain).wire, dnskey));
  const owner = domain === '' ? '.' : `${domain}.`;
  return `${owner} ${ttl} IN DS ${ds.readUInt16BE(0)} ${ds[2]} ${DS_DIGEST_SHA256} ${ds.subarray(4).toString('hex')}`;
}
