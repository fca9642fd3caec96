import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { dnsConfig, type DnsSettings } from './dns-config.ts';
import type { DnsTables } from './dns-tables.ts';

/** What the DNS module's code receives: its tables, its settings, the kernel's services. */
export type DnsContext = ModuleContext<DnsTables, DnsSettings>;

export function dnsContext(runtime: Runtime): DnsContext {
  return moduleContext<DnsTables, DnsSettings>(runtime, 'dns', dnsConfig);
}
