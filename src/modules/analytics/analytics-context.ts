import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { analyticsConfig, type AnalyticsSettings } from './analytics-config.ts';
import type { AnalyticsTables } from './analytics-tables.ts';

/** What the analytics module's code receives: its tables, settings and the kernel's services. */
export type AnalyticsContext = ModuleContext<AnalyticsTables, AnalyticsSettings>;

export function analyticsContext(runtime: Runtime): AnalyticsContext {
  return moduleContext<AnalyticsTables, AnalyticsSettings>(runtime, 'analytics', analyticsConfig);
}
