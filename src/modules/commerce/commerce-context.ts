import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CommerceTables } from './commerce-tables.ts';

/** What the Commerce module's code receives: its tables and the kernel's services. */
export type CommerceContext = ModuleContext<CommerceTables>;

export function commerceContext(runtime: Runtime): CommerceContext {
  return moduleContext<CommerceTables>(runtime, 'commerce');
}
