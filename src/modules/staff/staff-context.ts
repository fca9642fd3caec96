import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { StaffTables } from './staff-tables.ts';

/** What the staff module's code receives: its tables and the kernel's services. */
export type StaffContext = ModuleContext<StaffTables>;

export function staffContext(runtime: Runtime): StaffContext {
  return moduleContext<StaffTables>(runtime, 'staff');
}
