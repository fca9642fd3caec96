/**
 * The difference between two versions of a zone's records, SOA left out (RFC 1995 §4: the
 * SOA records frame each difference sequence). An RR is identified by owner, type, TTL and
 * RDATA, so a TTL change is a deletion plus an addition.
 */
import type { ZoneRecordData } from '../zone/zone-data.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

export interface ZoneDiff {
  readonly removed: ZoneRecordData[];
  readonly added: ZoneRecordData[];
}

function rrKey(r: ZoneRecordData): string {
  return `${r.name}\u0000${r.type}\u0000${r.ttl}\u0000${Buffer.from(r.rdata).toString('hex')}`;
}

export function diffRecords(from: readonly ZoneRecordData[], to: readonly ZoneRecordData[]): ZoneDiff {
  const before = new Map<string, ZoneRecordData>();
  for (const r of from) if (r.type !== RR_TYPE.SOA) before.set(rrKey(r), r);
  const added: ZoneRecordData[] = [];
  const kept = new Set<string>();
  for (const r of to) {
    if (r.type === RR_TYPE.SOA) continue;
    const k = rrKey(r);
    if (before.has(k)) kept.add(k);
    else if (!kept.has(k)) {
      kept.add(k);
      added.push(r);
    }
  }
  const removed = [...before].filter(([k]) => !kept.has(k)).map(([, r]) => r);
  return { removed, added };
}

/** The zone's SOA record at its apex, if any. */
export function findSoa(records: readonly ZoneRecordData[], domain: string): ZoneRecordData | null {
  return records.find((r) => r.type === RR_TYPE.SOA && r.name === domain) ?? null;
}
