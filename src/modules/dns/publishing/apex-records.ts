import { parseRdataText } from '../../../dns/index.ts';
import { RR_TYPE } from '../../../dns/index.ts';
import type { ZoneRow } from '../dns-tables.ts';
import { effectiveSoaEmail } from '../shared/zone-domain.ts';

export interface ApexRecord {
  name: string;
  type: number;
  ttl: number;
  content: string;
  rdata: Uint8Array;
}

/** RFC 1035 §8: the mailbox local part becomes one label, so dots inside it are escaped. */
export function rnameOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).replace(/\\/g, '\\\\').replace(/\./g, '\\.');
  return `${local}.${email.slice(at + 1)}.`;
}

/**
 * The apex SOA and NS RRsets the platform owns: MNAME is the first name server, RNAME the zone's
 * SOA email (default hostmaster@<domain>), NS one record per configured name server.
 */
export function apexRecords(
  zone: Pick<
    ZoneRow,
    'domain' | 'serial' | 'soa_email' | 'soa_refresh' | 'soa_retry' | 'soa_expire' | 'soa_minimum' | 'soa_ttl'
  >,
  nameservers: readonly string[],
): ApexRecord[] {
  const soa = [
    `${nameservers[0]}.`,
    rnameOf(effectiveSoaEmail(zone)),
    Number(zone.serial),
    zone.soa_refresh,
    zone.soa_retry,
    zone.soa_expire,
    zone.soa_minimum,
  ].join(' ');
  const records: ApexRecord[] = [
    { name: zone.domain, type: RR_TYPE.SOA, ttl: zone.soa_ttl, content: soa, rdata: new Uint8Array() },
    ...nameservers.map((ns) => ({
      name: zone.domain,
      type: RR_TYPE.NS,
      ttl: zone.soa_ttl,
      content: `${ns}.`,
      rdata: new Uint8Array(),
    })),
  ];
  for (const r of records) r.rdata = parseRdataText(r.type, r.content, zone.domain);
  return records;
}
