import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { ZoneHolders } from '../dns/index.ts';
import type { ServiceDirectory, ServiceTagLookup } from '../services/index.ts';
import { tagsContext } from './tags-context.ts';
import { registerTagRoutes } from './tags-routes.ts';
import { TagsService } from './tags-service.ts';

export interface TagsModuleDeps {
  readonly services: ServiceDirectory;
  readonly zones: ZoneHolders;
  /** Where the tags module answers the services list's `tag` filter. */
  readonly serviceTags: Registry<ServiceTagLookup>;
}

/** Resource tags (base /api/v1/client/tags) on services and DNS zones. */
export function createTagsModule(runtime: Runtime, deps: TagsModuleDeps): PlatformModule {
  const ctx = tagsContext(runtime);
  const service = new TagsService(ctx, {
    service: async (owner, id, access) => {
      const s = await deps.services.summaryFor(owner, id, access);
      return s === null ? null : { userId: s.userId, orgId: s.orgId };
    },
    dns_zone: (owner, id, access) => deps.zones.holderOf(owner, id, access),
  });
  deps.serviceTags.add(service);
  return {
    name: 'tags',
    prefix: '/client/tags',
    routes: (app) => registerTagRoutes(app, service),
  };
}
