import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { computeConfig, type ComputeSettings } from './compute-config.ts';
import type { ComputeTables } from './compute-tables.ts';

/** What the compute module's code receives: its tables, its settings, the kernel's services. */
export type ComputeContext = ModuleContext<ComputeTables, ComputeSettings>;

export function computeContext(runtime: Runtime): ComputeContext {
  return moduleContext<ComputeTables, ComputeSettings>(runtime, 'compute', computeConfig);
}
