import type { Kysely } from 'kysely';
import type { Module } from '../../kernel/app-context.ts';
import { scheduleDnssecKeys } from './dnssec/dnssec-key-scheduler.ts';
import { DnssecService } from './dnssec/dnssec-service.ts';
import type { DnssecTables } from './dnssec/dnssec-tables.ts';
import { keyEncryptionFromConfig } from './dnssec/key-encryption.ts';
import {
  registerLoadBalancing,
  warnIfPrivateTargetsAllowed,
} from './load-balancers/load-balancing-wiring.ts';
import { ZoneChangePublisher } from './publishing/zone-change-publisher.ts';
import { RecordsRepository } from './records/records-repository.ts';
import { registerRecordRoutes } from './records/records-routes.ts';
import { RecordsService } from './records/records-service.ts';
import type { DnsTables } from './shared/dns-tables.ts';
import { registerStatsRoutes } from './stats/stats-routes.ts';
import { StatsService } from './stats/stats-service.ts';
import { registerZoneTransfers } from './transfers/transfers-wiring.ts';
import { ZoneExportService } from './zone-files/zone-export-service.ts';
import { registerZoneFileRoutes } from './zone-files/zone-files-routes.ts';
import { ZoneImportService } from './zone-files/zone-import-service.ts';
import { ZoneChanges } from './zones/zone-change.ts';
import { ZonesRepository } from './zones/zones-repository.ts';
import { registerZoneRoutes } from './zones/zones-routes.ts';
import { ZonesService } from './zones/zones-service.ts';

/**
 * The DNS control API (base /api/v1/dns): zones, records, zone files, DNSSEC info, stats, and
 * load balancing (origin pools, their members, load balancers), zone transfer settings.
 */
export const dnsModule: Module = {
  name: 'dns',
  register(app, ctx) {
    const db = ctx.db as Kysely<DnsTables>;
    const publisher = new ZoneChangePublisher(ctx.bus, ctx.log);
    const changes = new ZoneChanges(db, ctx.clock, publisher);
    const zonesRepo = new ZonesRepository(db);
    const recordsRepo = new RecordsRepository(db);
    const records = new RecordsService(recordsRepo, zonesRepo, changes);

    const dnssec = new DnssecService(
      ctx.db as Kysely<DnssecTables>,
      changes,
      keyEncryptionFromConfig(ctx.config),
      ctx.clock,
      ctx.config.dnssecZskRollDays,
      ctx.log,
    );
    scheduleDnssecKeys(app, dnssec, ctx.config.dnssecKeyCheckIntervalS, ctx.log);
    registerZoneRoutes(app, new ZonesService(zonesRepo, changes, publisher, ctx.clock, dnssec));
    registerRecordRoutes(app, records);
    registerZoneFileRoutes(
      app,
      new ZoneImportService(recordsRepo, records, changes),
      new ZoneExportService(zonesRepo, recordsRepo, ctx.config.nameservers),
    );
    registerStatsRoutes(app, new StatsService(zonesRepo, ctx.bus, ctx.clock));

    registerLoadBalancing(app, ctx, { db, zones: zonesRepo, records, changes });
    registerZoneTransfers(app, ctx, { zones: zonesRepo, changes, publisher });
  },
  async start(ctx) {
    warnIfPrivateTargetsAllowed(ctx);
  },
};
