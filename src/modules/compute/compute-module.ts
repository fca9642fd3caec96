import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import { auditServerParam } from '../../kernel/audit/audit-log.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers, OsTemplates } from '../catalog/index.ts';
import type { ServiceProvisioner } from '../services/index.ts';
import { registerAccessRoutes } from './access/access-routes.ts';
import { AccessService } from './access/access-service.ts';
import { BackupsRepository } from './backups/backups-repository.ts';
import { registerBackupRoutes } from './backups/backups-routes.ts';
import { BackupsService } from './backups/backups-service.ts';
import { computeContext } from './compute-context.ts';
import { BackgroundWork } from './instances/background-work.ts';
import { InstanceAccess } from './instances/instance-access.ts';
import { InstancesRepository } from './instances/instances-repository.ts';
import { registerInstanceRoutes } from './instances/instances-routes.ts';
import { InstancesService } from './instances/instances-service.ts';
import { ProviderHolder } from './instances/provider-holder.ts';
import { registerPowerRoutes } from './power/power-routes.ts';
import { PowerService } from './power/power-service.ts';
import type { ComputeProvider } from './provider/compute-provider.ts';
import { pveProviderConfig } from './provider/provider-config.ts';
import { PveProvider } from './provider/pve-provider.ts';
import { localTemplates, startLocalQemuPve, type LocalQemuPve } from './local-pve/qemu-pve-startup.ts';
import { InstanceLifecycle } from './provisioning/instance-lifecycle.ts';
import { registerRebuildRoutes } from './rebuild/rebuild-routes.ts';
import { RebuildService } from './rebuild/rebuild-service.ts';
import { registerSnapshotRoutes } from './snapshots/snapshots-routes.ts';
import { SnapshotsService } from './snapshots/snapshots-service.ts';

export interface ComputeModuleDeps {
  /** The plans' sizes and limits (their catalogue metadata). */
  readonly catalog: CatalogOffers;
  /** The OS templates and the PVE template VM each names. */
  readonly osTemplates: OsTemplates;
  /** Where the services registry finds the vps provisioner. */
  readonly provisioners: Registry<ServiceProvisioner>;
  /**
   * The hypervisor cluster; default: the PVE adapter when PVE_URL is set, else none (VPS plans
   * are then not orderable, `not_configured`) until useProvider gives one.
   */
  readonly provider?: ComputeProvider | null;
}

export interface ComputeModule extends PlatformModule {
  /** Puts a provider in place (a local engine the application starts when no PVE_URL is set). */
  useProvider(provider: ComputeProvider | null): void;
  /** The provider in use, if any. */
  provider(): ComputeProvider | null;
}

/**
 * Cloud compute (base /api/v1/orgs/{org_slug}/vps): VPS instances of an organization on a
 * Proxmox VE cluster, made and unmade by the services registry, with power, snapshots, backups,
 * rebuild, rescue, console, graphs and cloud-init changes through the provider port.
 */
export function createComputeModule(runtime: Runtime, deps: ComputeModuleDeps): ComputeModule {
  const ctx = computeContext(runtime);
  const pve = runtime.config.section(pveProviderConfig);
  const own = deps.provider === undefined && pve !== null ? new PveProvider(pve) : null;
  const providers = new ProviderHolder(deps.provider ?? own);
  const work = new BackgroundWork(ctx.log);
  const instances = new InstancesRepository(ctx.db);
  const backupsRepo = new BackupsRepository(ctx.db);
  const access = new InstanceAccess(instances);
  const lifecycle = new InstanceLifecycle(ctx, instances, providers, deps.catalog, deps.osTemplates, work);
  deps.provisioners.add(lifecycle.provisioner());
  const reads = new InstancesService(ctx.clock, instances, access, providers, deps.osTemplates);
  const power = new PowerService(ctx, access, providers, work);
  const snapshots = new SnapshotsService(ctx, access, providers);
  const backups = new BackupsService(ctx, access, instances, backupsRepo, providers, work);
  const rebuild = new RebuildService(ctx, access, instances, providers, deps.osTemplates, work);
  const settings = new AccessService(ctx, access, instances, providers);
  let local: LocalQemuPve | null = null;
  let localProvider: PveProvider | null = null;
  let localStart: Promise<void> | null = null;
  let stopping = false;
  const startLocal = async (): Promise<void> => {
    const started = await startLocalQemuPve({
      dataDir: runtime.config.dataDir,
      templates: localTemplates(await deps.osTemplates.osTemplates()),
      guestDir: ctx.settings.guestDir ?? undefined,
    });
    if (!started.ok) {
      ctx.log.info(`compute not configured (VPS plans not orderable): set PVE_URL, or ${started.reason}`);
      return;
    }
    local = started.cluster;
    if (stopping) return; // stop() closes it
    localProvider = new PveProvider(local.settings);
    providers.use(localProvider);
    ctx.log.info(
      { url: local.pve.url, dir: local.dir },
      'compute: local PVE server on QEMU started (DATA_DIR/compute)',
    );
  };
  return {
    name: 'compute',
    prefix: '/orgs',
    useProvider(provider) {
      providers.use(provider);
    },
    provider: () => providers.current(),
    routes(app) {
      // Every instance route names its instance by `:uuid`: the staff activity's server filter.
      auditServerParam(app, 'uuid');
      registerInstanceRoutes(app, reads);
      registerPowerRoutes(app, power);
      registerSnapshotRoutes(app, snapshots);
      registerBackupRoutes(app, backups);
      registerRebuildRoutes(app, rebuild);
      registerAccessRoutes(app, settings);
    },
    start() {
      // No PVE_URL and no provider given: a local PVE-shaped server on QEMU, when installed. It
      // starts in the background (the first start builds the guest: a kernel package to fetch);
      // VPS plans answer not_configured until it is up.
      if (own !== null || deps.provider !== undefined || ctx.settings.local === 'off')
        return Promise.resolve();
      localStart = startLocal().catch((err: unknown) => {
        ctx.log.error({ err }, 'compute: the local PVE server on QEMU did not start');
      });
      return Promise.resolve();
    },
    async stop() {
      stopping = true;
      await localStart;
      await work.drain();
      await own?.close();
      if (local !== null) {
        providers.use(null);
        await localProvider?.close();
        await local.close();
        local = null;
      }
    },
  };
}
