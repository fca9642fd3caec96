import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { LocationsTables } from './locations-tables.ts';

/** What the locations module's code receives: its tables and the kernel's services. */
export type LocationsContext = ModuleContext<LocationsTables>;

export function locationsContext(runtime: Runtime): LocationsContext {
  return moduleContext<LocationsTables>(runtime, 'locations');
}
