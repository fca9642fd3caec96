/**
 * Entry script of a DNS cluster worker, forked by the DNS worker role (dns-worker-role.ts): the
 * data plane's worker main, run with this node's zone loading (dns-worker-zones.ts).
 */
import { runDnsWorker } from '../../dns/index.ts';
import { loadZones } from './dns-worker-zones.ts';

runDnsWorker(loadZones);
