import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { LocationsDirectory } from '../locations/index.ts';
import type { ServiceDirectory, ServiceProvisioner } from '../services/index.ts';
import { BucketsRepository } from './storage/buckets-repository.ts';
import { registerBucketRoutes } from './buckets/buckets-routes.ts';
import { BucketsService } from './buckets/buckets-service.ts';
import { startGateway, type StartedGateway } from './gateway/gateway-startup.ts';
import { StorageGateways } from './gateway/storage-gateways.ts';
import { KeysRepository } from './storage/keys-repository.ts';
import { registerKeyRoutes } from './keys/keys-routes.ts';
import { KeysService } from './keys/keys-service.ts';
import { objectStorageContext, type ObjectStorageContext } from './object-storage-context.ts';
import { registerObjectRoutes } from './objects/objects-routes.ts';
import { ObjectsService } from './objects/objects-service.ts';
import { registerPresignRoutes } from './objects/presign-routes.ts';
import { PresignService } from './objects/presign-service.ts';
import { ServiceS3 } from './storage/service-s3.ts';
import { StorageAccess } from './storage/storage-access.ts';
import { StorageLifecycle } from './storage/storage-lifecycle.ts';
import { StorageRepository } from './storage/storage-repository.ts';
import { registerStorageRoutes } from './storage/storage-routes.ts';
import { StorageService } from './storage/storage-service.ts';
import { TenantUsers } from './storage/tenant-users.ts';
import type { StorageRepos } from './storage/storage-repos.ts';
import { UsageMeter, type MeterResult } from './usage/usage-meter.ts';
import { UsageRepository } from './usage/usage-repository.ts';
import { registerUsageRoutes } from './usage/usage-routes.ts';
import { UsageService } from './usage/usage-service.ts';

export interface ObjectStorageModuleDeps {
  readonly services: ServiceDirectory;
  readonly catalog: CatalogOffers;
  readonly locations: LocationsDirectory;
  /** Where the services registry finds object storage's provisioner. */
  readonly provisioners: Registry<ServiceProvisioner>;
}

export interface ObjectStorageModule extends PlatformModule {
  /** The hourly meter's reading of the hour of `asOf` (tests move a clock and call it). */
  meterHour(asOf: Date): Promise<MeterResult>;
  /** Purges terminated services whose grace has ended; answers how many. */
  purgeDue(): Promise<number>;
}

/**
 * Object storage (base /api/v1/client/object-storage): S3 buckets per service on a Ceph RADOS
 * Gateway — a tenant per service, keys scoped by the gateway, quotas, presigned URLs and an hourly
 * usage meter. The gateway is configured (OBJECT_STORAGE_ADMIN_URL), or started here on one node
 * under DATA_DIR/objectstore, or absent: then its products are not orderable (`not_configured`).
 */
export function createObjectStorageModule(
  runtime: Runtime,
  deps: ObjectStorageModuleDeps,
): ObjectStorageModule {
  const ctx = objectStorageContext(runtime);
  const gateways = new StorageGateways(ctx.settings.signingRegion);
  const parts = objectStorageServices(ctx, deps, gateways);
  deps.provisioners.add(parts.lifecycle.provisioner());
  let started: StartedGateway | null = null;
  return {
    name: 'object-storage',
    prefix: '/client/object-storage',
    meterHour: (asOf) => parts.meter.runHour(asOf),
    purgeDue: () => parts.lifecycle.purgeDue(),
    routes(app) {
      registerStorageRoutes(app, parts.storage);
      registerBucketRoutes(app, parts.buckets);
      registerObjectRoutes(app, parts.objects);
      registerPresignRoutes(app, parts.presign);
      registerKeyRoutes(app, parts.keys);
      registerUsageRoutes(app, parts.usage);
    },
    async start() {
      started = await startGateway(ctx, gateways);
      if (gateways.configured) parts.meter.start();
    },
    async stop() {
      parts.meter.stop();
      gateways.close();
      await started?.stop();
      started = null;
    },
  };
}

/** The module's services over its repositories, wired to each other and to the modules it uses. */
function objectStorageServices(
  ctx: ObjectStorageContext,
  deps: ObjectStorageModuleDeps,
  gateways: StorageGateways,
) {
  const repos: StorageRepos = {
    storage: new StorageRepository(ctx.db),
    buckets: new BucketsRepository(ctx.db),
    keys: new KeysRepository(ctx.db),
  };
  const users = new TenantUsers(gateways);
  const lifecycle = new StorageLifecycle(ctx, gateways, users, deps.catalog);
  const access = new StorageAccess(deps.services, repos.storage);
  const s3 = new ServiceS3(gateways, repos.keys, ctx.sealer);
  return {
    lifecycle,
    storage: new StorageService(ctx, access, gateways, deps.locations, repos),
    buckets: new BucketsService(ctx, access, s3, repos, deps.locations),
    objects: new ObjectsService(ctx, access, s3, repos),
    presign: new PresignService(ctx, access, s3, repos),
    keys: new KeysService(ctx, access, users, s3, repos),
    usage: new UsageService(ctx, access, new UsageRepository(ctx.db)),
    meter: new UsageMeter(ctx, gateways, lifecycle),
  };
}
