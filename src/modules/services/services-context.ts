import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { ServicesTables } from './services-tables.ts';

/** What the services module's code receives: its tables and the kernel's services. */
export type ServicesContext = ModuleContext<ServicesTables>;

export function servicesContext(runtime: Runtime): ServicesContext {
  return moduleContext<ServicesTables>(runtime, 'services');
}
