/**
 * Starts our engine the way production does — ZoneStore + core message handler behind
 * startDnsServer — from zone-file texts, so tests and benches share the exact zones given to Knot.
 */
import { createMessageHandler } from '../../src/dns/server/handle-message.ts';
import { startDnsServer } from '../../src/dns/server/dns-server.ts';
import type { DnsServer } from '../../src/dns/server/dns-server.ts';
import type { ServerLimits } from '../../src/dns/server/listener-options.ts';
import { ZoneStore } from '../../src/dns/zone/zone-store.ts';
import type { ZoneData } from '../../src/dns/zone/zone-data.ts';
import { parseZoneFile } from '../../src/dns/zonefile/zone-file-parser.ts';

const TYPE_SOA = 6;

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
  const soa = records.find((r) => r.type === TYPE_SOA && r.name === z.domain);
  if (soa === undefined) throw new Error(`zone ${z.domain} has no SOA at its apex`);
  return { id: z.id, domain: z.domain, serial: soaSerial(soa.rdata), records };
}

export interface EngineServer {
  server: DnsServer;
  store: ZoneStore;
  handler: ReturnType<typeof createMessageHandler>;
}

export async function startEngine(
  zones: readonly ZoneText[],
  opts: { host?: string; port?: number; limits?: Partial<ServerLimits> } = {},
): Promise<EngineServer> {
  const store = new ZoneStore();
  store.replaceAll(zones.map(zoneDataFromText));
  const handler = createMessageHandler(store);
  const server = await startDnsServer({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    handler,
    rrl: null,
    limits: opts.limits,
  });
  return { server, store, handler };
}
