import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { ManagedRecords } from '../dns/index.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { LiveProductSource, OrgDirectory } from '../orgs/index.ts';
import type { ServiceDirectory } from '../services/index.ts';
import { gameproxyConfig, type GameproxySettings } from './gameproxy-config.ts';
import type { GameproxyTables } from './gameproxy-tables.ts';

/** What the game proxy module's code receives: its tables, its settings, the kernel's services. */
export type GameproxyContext = ModuleContext<GameproxyTables, GameproxySettings>;

export function gameproxyContext(runtime: Runtime): GameproxyContext {
  return moduleContext<GameproxyTables, GameproxySettings>(runtime, 'gameproxy', gameproxyConfig);
}

/** What the game proxy module uses of the modules made before it. */
export interface GameproxyModuleDeps {
  /** Game server services: a route's upstream, a partner boost's server. */
  readonly services: ServiceDirectory;
  /** Membership, for routes of an organization (`org_id`). */
  readonly orgs: OrgDirectory;
  /** Custom domains in zones hosted here: the CNAME published as this module's managed record. */
  readonly records: ManagedRecords;
  /** Where an organization's routes count among what must go before the organization can. */
  readonly liveProducts: Registry<LiveProductSource>;
}
