import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { BillingTables } from './billing-tables.ts';

/** What the billing module's code receives: its tables and the kernel's services. */
export type BillingContext = ModuleContext<BillingTables>;

export function billingContext(runtime: Runtime): BillingContext {
  return moduleContext<BillingTables>(runtime, 'billing');
}
