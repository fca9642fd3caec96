import type { Kysely } from 'kysely';
import { startDnsServer } from '../dns/server/dns-server.ts';
import { createMessageHandler } from '../dns/server/handle-message.ts';
import { createQueryStats } from '../dns/server/query-stats.ts';
import { createResponseRateLimiter } from '../dns/server/response-rate-limit.ts';
import { ZoneStore } from '../dns/zone/zone-store.ts';
import type { AppContext } from '../kernel/app-context.ts';
import { DnssecZoneMaterial } from '../modules/dns/dnssec/dnssec-zone-material.ts';
import type { DnssecTables } from '../modules/dns/dnssec/dnssec-tables.ts';
import { keyEncryptionFromConfig } from '../modules/dns/dnssec/key-encryption.ts';
import { DbZoneSource } from '../modules/dns/publishing/db-zone-source.ts';
import type { DnsTables } from '../modules/dns/shared/dns-tables.ts';
import { zoneStatsSink } from '../modules/dns/stats/zone-stats-sink.ts';
import { ZoneSync } from './zone-sync.ts';

export interface DnsRole {
  readonly udpPort: number;
  readonly tcpPort: number;
  readonly store: ZoneStore;
  readonly sync: ZoneSync;
  stop(): Promise<void>;
}

/** The DNS role: zones from the database into a store, kept current from the bus, served on DNS_HOST:DNS_PORT. */
export async function startDnsRole(ctx: AppContext): Promise<DnsRole> {
  const store = new ZoneStore();
  const sync = new ZoneSync(
    store,
    new DbZoneSource(
      ctx.db as Kysely<DnsTables>,
      ctx.config.nameservers,
      new DnssecZoneMaterial(ctx.db as Kysely<DnssecTables>, keyEncryptionFromConfig(ctx.config)),
    ),
    ctx.bus,
    ctx.log,
  );
  await sync.start();
  const stats = createQueryStats({ sink: zoneStatsSink(ctx.bus, ctx.log), now: () => ctx.clock.now() });
  stats.start();
  const server = await startDnsServer({
    host: ctx.config.dnsHost,
    port: ctx.config.dnsPort,
    handler: createMessageHandler(store),
    rrl: createResponseRateLimiter({ rate: ctx.config.rrlRate, exempt: ctx.config.rrlExempt }),
    stats,
  });
  ctx.log.info({ host: ctx.config.dnsHost, port: server.udpPort }, 'DNS listening');
  return {
    udpPort: server.udpPort,
    tcpPort: server.tcpPort,
    store,
    sync,
    async stop() {
      await server.close();
      stats.stop();
      await sync.stop();
    },
  };
}
