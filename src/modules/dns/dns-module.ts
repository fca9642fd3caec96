import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import type { ModuleApp, PlatformModule } from '../../kernel/module/platform-module.ts';
import { moduleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { RegionResponse, type RegionsDirectory } from '../locations/index.ts';
import type { LiveProductSource, OrgDirectory } from '../orgs/index.ts';
import type { ServiceDirectory, ServiceProvisioner } from '../services/index.ts';
import { canAccess, type Access, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { dnsHostingProvisioner } from './services/dns-hosting-provisioner.ts';
import { dnsConfig, type DnsSettings } from './dns-config.ts';
import type { DnsContext } from './dns-context.ts';
import type { DnsTables } from './dns-tables.ts';
import { scheduleDnssecKeys } from './dnssec/dnssec-key-scheduler.ts';
import { DnssecService } from './dnssec/dnssec-service.ts';
import {
  registerLoadBalancing,
  warnIfPrivateTargetsAllowed,
} from './load-balancing/load-balancing-wiring.ts';
import { ManagedRecordsService } from './managed/managed-records-service.ts';
import type { ManagedRecords, ManagedZones } from './managed/managed-records.ts';
import { ManagedZonesService } from './managed/managed-zones-service.ts';
import { RecordsRepository } from './records/records-repository.ts';
import { registerRecordRoutes } from './records/records-routes.ts';
import { RecordsService } from './records/records-service.ts';
import { ZoneChanges } from './shared/zone-changes.ts';
import { registerStatsRoutes } from './stats/stats-routes.ts';
import { StatsService } from './stats/stats-service.ts';
import { registerZoneTransfers } from './transfers/transfers-wiring.ts';
import { ZoneExportService } from './zone-files/zone-export-service.ts';
import { registerZoneFileRoutes } from './zone-files/zone-files-routes.ts';
import { ZoneImportService } from './zone-files/zone-import-service.ts';
import { ZonesRepository } from './zones/zones-repository.ts';
import { registerZoneRoutes } from './zones/zones-routes.ts';
import { ZonesService } from './zones/zones-service.ts';

/** What the DNS module needs from the modules before it. */
export interface ZoneHolders {
  holderOf(
    owner: OwnerScope,
    zoneId: number,
    access: Access,
  ): Promise<{ readonly userId: number; readonly orgId: number | null } | null>;
}

export interface DnsModuleDeps {
  readonly regions: RegionsDirectory;
  readonly orgs: OrgDirectory;
  /** The services registry: zones of a DNS hosting service. */
  readonly services?: ServiceDirectory;
}

/** The DNS module, and the interface it offers other modules. */
export interface DnsModule extends PlatformModule {
  /** Hosted-zone lookup and records other modules own (certificates, platform domains, mail). */
  readonly managedRecords: ManagedRecords;
  /** Zones the platform holds for a module, and zones a module hands out under them (platform domains). */
  readonly managedZones: ManagedZones;
  /** An organization's zones, as live products (organization deletion). */
  readonly orgProducts: LiveProductSource;
  /** DNS hosting's provisioner, for the services registry. */
  readonly hostingProvisioner: ServiceProvisioner;
  /** Who holds a zone, when the caller may see (read) or change (write) it (resource tags). */
  readonly zoneHolders: ZoneHolders;
}

/**
 * The DNS control API (base /api/v1/dns): zones, records, zone files, DNSSEC info, stats, load
 * balancing (origin pools, their members, load balancers, preview), zone transfer settings.
 */
export function createDnsModule(runtime: Runtime, deps: DnsModuleDeps): DnsModule {
  const ctx: DnsContext = moduleContext<DnsTables, DnsSettings>(runtime, 'dns', dnsConfig);
  const changes = new ZoneChanges(ctx);
  const zonesRepo = new ZonesRepository(ctx.db);
  const recordsRepo = new RecordsRepository(ctx.db);
  const records = new RecordsService(recordsRepo, zonesRepo, changes);
  const dnssec = new DnssecService(ctx, changes);
  const managedRecords = new ManagedRecordsService(ctx, changes, records);
  const zones = new ZonesService(ctx, changes, dnssec, deps.orgs, deps.services ?? null);
  return {
    name: 'dns',
    prefix: '/dns',
    managedRecords,
    managedZones: new ManagedZonesService(ctx, zones),
    orgProducts: (orgId) => zones.orgProducts(orgId),
    hostingProvisioner: dnsHostingProvisioner(zonesRepo),
    zoneHolders: {
      holderOf: async (owner, zoneId, access) => {
        const zone = await zonesRepo.find(zoneId);
        if (zone === null || zone.user_id === null || !canAccess(owner, zone, access)) return null;
        return { userId: Number(zone.user_id), orgId: zone.org_id === null ? null : Number(zone.org_id) };
      },
    },
    routes(app: ModuleApp) {
      // The audit log names the organization of the zone a call changes.
      app.addHook('preHandler', async (request) => {
        const zoneId = (request.params as { zone_id?: unknown } | undefined)?.zone_id;
        if (request.method === 'GET' || typeof zoneId !== 'number') return;
        request.auditNote = { ...request.auditNote, orgId: await zonesRepo.orgOf(zoneId) };
      });
      // A preview (and its what-if matrix) changes nothing: not audited.
      app.addHook('onRoute', (route) => {
        if (route.url.endsWith('/preview') || route.url.endsWith('/preview/matrix'))
          route.config = { ...route.config, audit: false };
      });
      scheduleDnssecKeys(app, dnssec, ctx.settings.dnssecKeyCheckIntervalS, ctx.log);
      registerZoneRoutes(app, zones);
      registerRecordRoutes(app, records);
      registerZoneFileRoutes(
        app,
        new ZoneImportService(recordsRepo, records, changes),
        new ZoneExportService(zonesRepo, recordsRepo, ctx.settings.nameservers),
      );
      registerStatsRoutes(app, new StatsService(zonesRepo, ctx.bus, ctx.clock));
      app.get(
        '/lb-regions',
        {
          schema: {
            description: 'The 11 regions, ordered by sort_order; each region’s countries sorted by code.',
            summary: 'The load-balancing regions and their countries (keys of region_pools)',
            response: { 200: Type.Array(RegionResponse), ...errorResponses(401, 429) },
          },
        },
        async () => deps.regions.listRegions(),
      );
      registerLoadBalancing(app, ctx, { zones: zonesRepo, records, changes });
      registerZoneTransfers(app, ctx, { zones: zonesRepo, changes });
    },
    async start() {
      warnIfPrivateTargetsAllowed(ctx);
    },
  };
}
