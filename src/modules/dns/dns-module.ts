import type { ModuleApp, PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { LiveProductSource, OrgDirectory } from '../orgs/index.ts';
import type { ServiceDirectory, ServiceProvisioner } from '../services/index.ts';
import { canAccess } from '../../kernel/auth/owner-scope.ts';
import { Registry } from '../../kernel/module/registry.ts';
import { dnsHostingProvisioner } from './services/dns-hosting-provisioner.ts';
import { dnsContext } from './dns-context.ts';
import { scheduleDnssecKeys } from './dnssec/dnssec-key-scheduler.ts';
import { DnssecService } from './dnssec/dnssec-service.ts';
import { ManagedRecordsService } from './managed/managed-records-service.ts';
import type {
  ManagedRecords,
  ManagedZones,
  NameClaimSource,
  ZoneAccess,
  ZoneHolders,
  ZoneTree,
} from './dns-interfaces.ts';
import { ManagedZonesService } from './managed/managed-zones-service.ts';
import { RecordsRepository } from './records/records-repository.ts';
import { registerRecordRoutes } from './records/records-routes.ts';
import { RecordsService } from './records/records-service.ts';
import { ZoneChanges } from './shared/zone-changes.ts';
import { registerStatsRoutes } from './stats/stats-routes.ts';
import { StatsService } from './stats/stats-service.ts';
import { publishedZoneSource } from './publishing/db-zone-source.ts';
import { registerZoneTransfers } from './transfers/transfers-wiring.ts';
import { ZoneExportService } from './zone-files/zone-export-service.ts';
import { registerZoneFileRoutes } from './zone-files/zone-files-routes.ts';
import { ZoneImportService } from './zone-files/zone-import-service.ts';
import { ZonesRepository } from './zones/zones-repository.ts';
import { registerZoneRoutes } from './zones/zones-routes.ts';
import { ZonesService } from './zones/zones-service.ts';
import { ZoneDelegations } from './managed/zone-delegations.ts';
import { ZoneTreeService } from './zone-tree/zone-tree-service.ts';
import { createZoneAccess } from './zone-access/zone-access.ts';
import { auditZoneOrg } from './zone-access/zone-audit-note.ts';

export interface DnsModuleDeps {
  readonly orgs: OrgDirectory;
  /** The services registry: zones of a DNS hosting service. */
  readonly services?: ServiceDirectory;
  /** Names other modules hold in zones (load balancer hostnames): records refused there. */
  readonly nameClaims: Registry<NameClaimSource>;
  /** Where the services registry finds DNS hosting's provisioner. */
  readonly provisioners: Registry<ServiceProvisioner>;
  /** Where organization deletion finds an organization's zones. */
  readonly liveProducts: Registry<LiveProductSource>;
}

/** The DNS module, and the interface it offers other modules. */
export interface DnsModule extends PlatformModule {
  /** Hosted-zone lookup and records other modules own (certificates, platform domains, mail). */
  readonly managedRecords: ManagedRecords;
  /** Zones the platform holds for a module, and zones a module hands out under them (platform domains). */
  readonly managedZones: ManagedZones;
  /** Who holds a zone, when the caller may see (read) or change (write) it (resource tags). */
  readonly zoneHolders: ZoneHolders;
  /** Zones as the data they hold, for load balancing: access checks and zone changes. */
  readonly zoneAccess: ZoneAccess;
}

/**
 * The DNS control API (base /api/v1/dns): zones, records, zone files, DNSSEC, stats, zone
 * transfer settings. (Load balancing inside zones: the load-balancing module, through zoneAccess.)
 */
export function createDnsModule(runtime: Runtime, deps: DnsModuleDeps): DnsModule {
  const ctx = dnsContext(runtime);
  const changes = new ZoneChanges(ctx);
  const zonesRepo = new ZonesRepository(ctx.db);
  const recordsRepo = new RecordsRepository(ctx.db);
  const records = new RecordsService(recordsRepo, zonesRepo, changes, deps.nameClaims);
  const dnssec = new DnssecService(ctx, changes);
  const managedRecords = new ManagedRecordsService(ctx, changes, records);
  const delegations = new ZoneDelegations(changes, managedRecords, recordsRepo, ctx.settings.nameservers);
  const zones = new ZonesService(ctx, changes, dnssec, deps.orgs, deps.services ?? null, delegations);
  deps.provisioners.add(dnsHostingProvisioner(zonesRepo));
  deps.liveProducts.add((orgId) => zones.orgProducts(orgId));
  return {
    name: 'dns',
    prefix: '/dns',
    managedRecords,
    managedZones: new ManagedZonesService(ctx, zones),
    zoneHolders: {
      holderOf: async (owner, zoneId, access) => {
        const zone = await zonesRepo.find(zoneId);
        if (zone === null || zone.user_id === null || !canAccess(owner, zone, access)) return null;
        return { userId: Number(zone.user_id), orgId: zone.org_id === null ? null : Number(zone.org_id) };
      },
    },
    zoneAccess: createZoneAccess(zonesRepo, recordsRepo, changes),
    routes(app: ModuleApp) {
      auditZoneOrg(app, (zoneId) => zonesRepo.orgOf(zoneId));
      scheduleDnssecKeys(app, dnssec, ctx.settings.dnssecKeyCheckIntervalS, ctx.log);
      registerZoneRoutes(app, zones);
      registerRecordRoutes(app, records);
      registerZoneFileRoutes(
        app,
        new ZoneImportService(recordsRepo, records, changes),
        new ZoneExportService(zonesRepo, recordsRepo, ctx.settings.nameservers),
      );
      registerStatsRoutes(app, new StatsService(zonesRepo, ctx.bus, ctx.clock));
      // The versions kept are record sets: load balancers' steering is not transferred, not loaded.
      const published = publishedZoneSource(ctx, null);
      registerZoneTransfers(app, ctx, { zones: zonesRepo, changes, published });
    },
  };
}

/**
 * Platform staff's commands on the zone tree (`npm run dns -- check-zones | transfer-zone`), on
 * the runtime alone. Other modules' claims on names are not read: the only records written are
 * the NS records of delegations, at names that are zones of their own.
 */
export function zoneTree(runtime: Runtime): ZoneTree {
  const ctx = dnsContext(runtime);
  const changes = new ZoneChanges(ctx);
  const recordsRepo = new RecordsRepository(ctx.db);
  const records = new RecordsService(
    recordsRepo,
    new ZonesRepository(ctx.db),
    changes,
    new Registry('name claims'),
  );
  return new ZoneTreeService(
    ctx,
    new ZoneDelegations(
      changes,
      new ManagedRecordsService(ctx, changes, records),
      recordsRepo,
      ctx.settings.nameservers,
    ),
  );
}
