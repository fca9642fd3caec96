/**
 * Entry script of the DNS workers of bench/serve-zone-file.ts (--workers N > 1): serves the zone
 * file of zone-file-zones.ts in each worker.
 */
import { runDnsWorker } from '../src/dns/index.ts';
import { loadZones } from './zone-file-zones.ts';

runDnsWorker(loadZones);
