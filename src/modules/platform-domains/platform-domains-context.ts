import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { platformDomainsConfig, type PlatformDomainsSettings } from './platform-domains-config.ts';
import type { PlatformDomainsTables } from './platform-domains-tables.ts';

/** What the platform domains module's code receives: its table, its settings, the kernel's services. */
export type PlatformDomainsContext = ModuleContext<PlatformDomainsTables, PlatformDomainsSettings>;

export function platformDomainsContext(runtime: Runtime): PlatformDomainsContext {
  return moduleContext<PlatformDomainsTables, PlatformDomainsSettings>(
    runtime,
    'platform-domains',
    platformDomainsConfig,
  );
}
