/**
 * Test worker entry for dns-workers.test.ts (the script each forked worker runs): serves
 * `example.test` with `www` A 192.0.2.<n>, where n starts at `options.n` and a broadcast `{ n }`
 * replaces it (shows the zone-update path). `options.fail` makes loading throw (start-failure
 * test). A request answers the worker's index, its current n and what was asked.
 */
import { runDnsWorker } from './dns-worker-main.ts';
import type { DnsWorkerIdentity, DnsWorkerZones } from './dns-workers.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { zoneDataFromText } from '../zone/zone-data-from-text.ts';

export interface FixtureOptions {
  n: number;
  fail?: boolean;
}

function zoneText(n: number): string {
  return [
    '$ORIGIN example.test.',
    '$TTL 300',
    '@ IN SOA ns1 hostmaster 1 3600 600 86400 300',
    '@ IN NS ns1',
    `ns1 IN A 192.0.2.53`,
    `www IN A 192.0.2.${n}`,
    '',
  ].join('\n');
}

export function loadZones(options: unknown, worker: DnsWorkerIdentity): DnsWorkerZones {
  const o = options as FixtureOptions;
  if (o.fail === true) throw new Error('fixture asked to fail');
  const store = new ZoneStore();
  const load = (n: number): void =>
    store.replaceAll([zoneDataFromText({ id: 1, domain: 'example.test', text: zoneText(n) })]);
  let current = o.n;
  load(current);
  return {
    store,
    onMessage(m) {
      const n = (m as { n?: unknown }).n;
      if (typeof n === 'number') load((current = n));
    },
    onRequest: (asked) => ({ index: worker.index, n: current, asked }),
  };
}

runDnsWorker(loadZones);
