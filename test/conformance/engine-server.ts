/**
 * Starts our engine the way production does — ZoneStore + core message handler behind
 * startDnsServer — from zone-file texts, so tests and benches share the exact zones given to Knot.
 */
import { ZoneStore, createMessageHandler, startDnsServer, zoneDataFromText } from '../../src/dns/index.ts';
import type { DnsServer, ServerLimits, ZoneText } from '../../src/dns/index.ts';

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
