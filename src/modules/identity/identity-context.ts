import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { IdentityTables } from './identity-tables.ts';

/** What the identity module's code receives: its tables and the kernel's services. */
export type IdentityContext = ModuleContext<IdentityTables>;

export function identityContext(runtime: Runtime): IdentityContext {
  return moduleContext<IdentityTables>(runtime, 'identity');
}
