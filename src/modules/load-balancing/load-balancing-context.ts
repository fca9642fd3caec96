import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { loadBalancingConfig, type LoadBalancingSettings } from './load-balancing-config.ts';
import type { LoadBalancingTables } from './load-balancing-tables.ts';

/** What the load-balancing module's code receives: its tables, its settings, the kernel's services. */
export type LoadBalancingContext = ModuleContext<LoadBalancingTables, LoadBalancingSettings>;

export function loadBalancingContext(runtime: Runtime): LoadBalancingContext {
  return moduleContext<LoadBalancingTables, LoadBalancingSettings>(
    runtime,
    'load-balancing',
    loadBalancingConfig,
  );
}
