/**
 * Zone-file text (RFC 1035 §5) → ZoneData, the form the data plane serves. For benchmarks,
 * tools and DNS worker entry scripts that serve a zone file as-is.
 *
 * Contract: throws on any parse error (the first five are in the message) and when the apex has
 * no SOA; the serial is the apex SOA's. `domain` is the stored form (no trailing dot).
 */
import type { ZoneData } from './zone-data.ts';
import { parseZoneFile } from '../zonefile/zone-file-parser.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

export interface ZoneText {
  id: number;
  domain: string;
  text: string;
}

/** SOA SERIAL (RFC 1035 §3.3.13): the first 32-bit field after MNAME and RNAME (uncompressed). */
export function soaSerial(rdata: Uint8Array): number {
  let p = 0;
  for (let names = 0; names < 2; names++) {
    while (p < rdata.length && rdata[p] !== 0) p += rdata[p]! + 1;
    p++;
  }
  if (p + 4 > rdata.length) throw new Error('SOA rdata too short');
  return ((rdata[p]! << 24) | (rdata[p + 1]! << 16) | (rdata[p + 2]! << 8) | rdata[p + 3]!) >>> 0;
}

export function zoneDataFromText(z: ZoneText): ZoneData {
  const parsed = parseZoneFile(z.text, z.domain);
  if (parsed.errors.length > 0)
    throw new Error(`zone ${z.domain}: ${JSON.stringify(parsed.errors.slice(0, 5))}`);
  const records = parsed.records.map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata }));
  const soa = records.find((r) => r.type === RR_TYPE.SOA && r.name === z.domain);
  if (soa === undefined) throw new Error(`zone ${z.domain} has no SOA at its apex`);
  return { id: z.id, domain: z.domain, serial: soaSerial(soa.rdata), records };
}
