/**
 * Zone loading for DNS workers (zone-file-worker.ts, see src/dns/server/dns-workers.ts) and for
 * serve-zone-file.ts in process: serves one zone file.
 * Options: `{ zoneFile: string; origin: string }`.
 */
import { readFileSync } from 'node:fs';
import { ZoneStore, zoneDataFromText } from '../src/dns/index.ts';
import type { DnsWorkerZones } from '../src/dns/index.ts';

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
