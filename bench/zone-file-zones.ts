/**
 * Zone module for DNS workers (see src/dns/server/dns-workers.ts): serves one zone file.
 * Options: `{ zoneFile: string; origin: string }`.
 */
import { readFileSync } from 'node:fs';
import type { DnsWorkerZones } from '../src/dns/server/dns-workers.ts';
import { ZoneStore } from '../src/dns/zone/zone-store.ts';
import { zoneDataFromText } from '../src/dns/zone/zone-data-from-text.ts';

export interface ZoneFileZonesOptions {
  zoneFile: string;
  origin: string;
}

export function loadZones(options: unknown): DnsWorkerZones {
  const o = options as ZoneFileZonesOptions;
  const store = new ZoneStore();
  store.replaceAll([
    zoneDataFromText({
      id: 1,
      domain: o.origin.replace(/\.$/, ''),
      text: readFileSync(o.zoneFile, 'utf8'),
    }),
  ]);
  return { store };
}
