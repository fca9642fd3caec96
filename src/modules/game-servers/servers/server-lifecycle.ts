/**
 * A game server service through the services registry's lifecycle: order → the server row and its
 * directory (`plugins/` for Paper, `mods/` for Fabric and Forge, `world/datapacks/`); suspend and
 * unsuspend mark it; terminate marks it terminated (its files are kept for the operator).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  ProvisioningFailed,
  type ProvisionedService,
  type ServiceProvisioner,
} from '../../services/index.ts';
import type { GameServersContext } from '../game-servers-context.ts';
import {
  addonFolderOf,
  DATAPACK_FOLDER,
  defaultVersionOf,
  loaderOf,
  serverDir,
  STAGED_FOLDER,
} from './server-layout.ts';
import type { ServersRepository } from './servers-repository.ts';

/** The catalogue `module_name` of game server products. */
export const GAME_SERVER = 'game_server';

export class ServerLifecycle {
  constructor(
    private readonly ctx: GameServersContext,
    private readonly servers: ServersRepository,
  ) {}

  provisioner(): ServiceProvisioner {
    return {
      module: GAME_SERVER,
      provision: (s) => this.provision(s),
      suspend: (s) => this.servers.setStatus(s.id, 'suspended'),
      unsuspend: (s) => this.servers.setStatus(s.id, 'active'),
      terminate: (s) => this.servers.setStatus(s.id, 'terminated'),
    };
  }

  async provision(service: ProvisionedService): Promise<void> {
    const existing = await this.servers.byService(service.id);
    if (existing !== null) return;
    const slug = typeof service.config.specialization === 'string' ? service.config.specialization : null;
    if (slug === null) throw new ProvisioningFailed('no_specialization');
    const loader = loaderOf(slug);
    const version = defaultVersionOf(slug);
    const uuid = randomUUID();
    const dir = serverDir(this.ctx.settings.root, uuid);
    const addons = addonFolderOf(loader);
    for (const sub of [addons?.folder, DATAPACK_FOLDER, STAGED_FOLDER])
      if (sub !== undefined) await mkdir(path.join(dir, sub), { recursive: true });
    const name = typeof service.config.name === 'string' ? service.config.name : `Server ${service.id}`;
    await this.servers.insert({
      uuid,
      service_id: service.id,
      user_id: service.userId,
      org_id: service.orgId,
      name,
      specialization_slug: slug,
      version_id: version?.versionId ?? null,
      build_number: version?.buildNumber ?? null,
      game_version: version?.gameVersion ?? null,
      loader,
      node: hostname(),
      status: 'active',
    });
  }
}
