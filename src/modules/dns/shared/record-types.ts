import { RR_TYPE, isMetaType, typeToText } from '../../../dns/index.ts';

/** Types the platform writes itself (apex SOA/NS, DNSSEC material); users cannot store them. */
const MANAGED = new Set<number>([
  RR_TYPE.SOA,
  RR_TYPE.RRSIG,
  RR_TYPE.NSEC,
  RR_TYPE.DNSKEY,
  RR_TYPE.NSEC3,
  RR_TYPE.NSEC3PARAM,
  RR_TYPE.CDS,
  RR_TYPE.CDNSKEY,
]);

/** Why a record of `type` cannot be stored at `name`, or null when it can. */
export function typeRefusal(type: number, name: string, apex: string): string | null {
  if (isMetaType(type)) return `${typeToText(type)} is not a record type that can be stored`;
  if (MANAGED.has(type)) return `${typeToText(type)} records are managed by the platform`;
  if (type === RR_TYPE.NS && name === apex) return 'NS records at the zone apex are managed by the platform';
  return null;
}
