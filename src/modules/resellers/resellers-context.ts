import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { ResellersTables } from './resellers-tables.ts';

/** What the resellers module's code receives: the kernel's services (no tables of its own yet). */
export type ResellersContext = ModuleContext<ResellersTables>;

export function resellersContext(runtime: Runtime): ResellersContext {
  return moduleContext<ResellersTables>(runtime, 'resellers');
}
