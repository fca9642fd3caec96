import type { ModuleContext } from '../../kernel/module/module-context.ts';
import type { IdentityTables } from './identity-tables.ts';

/** What the identity module's code receives: its tables and the kernel's services. */
export type IdentityContext = ModuleContext<IdentityTables>;
