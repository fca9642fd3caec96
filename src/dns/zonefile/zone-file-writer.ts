/**
 * Writes records as an RFC 1035 §5 master file that parseZoneFile reads back: `$ORIGIN` first, then
 * one record per line with an absolute owner, so no line depends on the one before it.
 */
import { nameToText, parseStoredName } from '../wire/name-text.ts';
import { typeToText } from '../wire/rr-type.ts';

export interface ZoneFileRecord {
  /** Owner in stored form. */
  name: string;
  type: number;
  ttl: number;
  /** Presentation RDATA (formatRdata); relative names in it are relative to `origin`. */
  content: string;
}

export function writeZoneFile(origin: string, records: readonly ZoneFileRecord[]): string {
  const lines = [`$ORIGIN ${nameToText(parseStoredName(origin))}`];
  for (const r of records) {
    lines.push(`${nameToText(parseStoredName(r.name))} ${r.ttl} IN ${typeToText(r.type)} ${r.content}`);
  }
  return lines.join('\n') + '\n';
}
