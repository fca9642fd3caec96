import type { ZoneData, ZoneNamesData, ZoneRecordData } from './zone-data.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

/**
 * The zone `old` with the records owned by `names` replaced by those of `part` and its SOA by
 * `part.soa` (see ZoneSource.loadNames), records otherwise in their order; null when `old` has no
 * apex SOA to replace.
 */
export function applyNamesChange(
  old: ZoneData,
  part: ZoneNamesData,
  names: readonly string[],
): ZoneData | null {
  const touched = new Set(names);
  const records: ZoneRecordData[] = [];
  let soaReplaced = false;
  for (const r of old.records) {
    if (touched.has(r.name)) continue;
    if (!soaReplaced && r.type === RR_TYPE.SOA && r.name === old.domain) {
      records.push(part.soa);
      soaReplaced = true;
    } else {
      records.push(r);
    }
  }
  if (!soaReplaced) return null;
  for (const r of part.records) records.push(r);
  return { ...old, serial: part.serial, records };
}
