import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import { auditServerParam } from '../../kernel/audit/audit-log.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import type { ServiceProvisioner } from '../services/index.ts';
import { gameServersContext } from './game-servers-context.ts';
import { ServerAccess } from './servers/server-access.ts';
import { ServerLifecycle } from './servers/server-lifecycle.ts';
import { ServersRepository } from './servers/servers-repository.ts';
import { registerServerRoutes } from './servers/servers-routes.ts';
import { ServersService } from './servers/servers-service.ts';
import { SoftwareRepository } from './software/software-repository.ts';
import { registerSoftwareRoutes } from './software/software-routes.ts';
import { SoftwareScan } from './software/software-scan.ts';
import { SoftwareService } from './software/software-service.ts';
import { SoftwareUpdateCheck } from './software/software-update-check.ts';
import type { CheckUpdates, GameServerSources } from './game-servers-interfaces.ts';
import { makeGameServerSources, sourceHttpFor } from './sources/make-sources.ts';
import { gameServerSourcesConfig } from './sources/sources-config.ts';
import { updateCheck } from './updates/update-check.ts';

export interface GameServersModuleDeps {
  readonly accounts: AccountsDirectory;
  /** Where the services registry finds the game server provisioner. */
  readonly provisioners: Registry<ServiceProvisioner>;
  /** The version sources; default: the configured ones (sources/sources-config.ts). */
  readonly sources?: GameServerSources;
  /** The update check of the updates routes; default: over the sources, newest fitting build first. */
  readonly checkUpdates?: CheckUpdates;
}

export interface GameServersModule extends PlatformModule {
  /** Replaces the version sources (the application wires its adapters; tests give their own). */
  useSources(sources: GameServerSources): void;
  /** Replaces the update check (as above). */
  useUpdateCheck(check: CheckUpdates): void;
}

/**
 * Game servers (base /api/v1/client/servers): a server per game_server service with its directory,
 * its users and their permissions, and the addon files in it (software records) installed, updated
 * and rolled back by jobs that stage builds for the next start.
 */
export function createGameServersModule(runtime: Runtime, deps: GameServersModuleDeps): GameServersModule {
  const ctx = gameServersContext(runtime);
  const servers = new ServersRepository(ctx.db);
  const access = new ServerAccess(servers);
  const lifecycle = new ServerLifecycle(ctx, servers);
  deps.provisioners.add(lifecycle.provisioner());
  // The configured sources (Modrinth, CurseForge with a key, Paper) unless given.
  const http = deps.sources === undefined ? sourceHttpFor(runtime.config) : null;
  let sources: GameServerSources =
    deps.sources ?? makeGameServerSources(runtime.config.section(gameServerSourcesConfig), http!, ctx.clock);
  const serversService = new ServersService(ctx, servers, access, deps.accounts, () => sources);
  let checkUpdates: CheckUpdates | null = deps.checkUpdates ?? updateCheck(ctx.clock);
  const softwareRepo = new SoftwareRepository(ctx.db);
  const scan = new SoftwareScan(ctx, softwareRepo);
  const software = new SoftwareService(ctx, access, softwareRepo, scan, () => sources, runtime.outbound);
  const updates = new SoftwareUpdateCheck(
    access,
    softwareRepo,
    scan,
    () => sources,
    () => checkUpdates,
  );
  return {
    name: 'game-servers',
    prefix: '/client/servers',
    useSources(next) {
      sources = next;
    },
    useUpdateCheck(check) {
      checkUpdates = check;
    },
    routes(app) {
      // Every server route names its server by `:uuid`: the staff activity's server filter.
      auditServerParam(app, 'uuid');
      // An organization's server: its calls are the organization's entries (a user's token names none).
      app.addHook('preHandler', async (request) => {
        const uuid = (request.params as { uuid?: unknown } | undefined)?.uuid;
        if (typeof request.routeOptions.config.audit !== 'string' || typeof uuid !== 'string') return;
        const orgId = (await servers.find(uuid))?.org_id ?? null;
        if (orgId !== null) request.auditNote = { ...request.auditNote, orgId };
      });
      registerServerRoutes(app, serversService);
      registerSoftwareRoutes(app, software, updates);
    },
    async stop() {
      await software.drain();
      await http?.close();
    },
  };
}
