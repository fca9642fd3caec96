import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogTables } from './catalog-tables.ts';

/** What the catalogue module's code receives: its tables and the kernel's services. */
export type CatalogContext = ModuleContext<CatalogTables>;

export function catalogContext(runtime: Runtime): CatalogContext {
  return moduleContext<CatalogTables>(runtime, 'catalog');
}
