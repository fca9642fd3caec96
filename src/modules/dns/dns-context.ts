import type { ModuleContext } from '../../kernel/module/module-context.ts';
import type { DnsSettings } from './dns-config.ts';
import type { DnsTables } from './dns-tables.ts';

/** What the DNS module's code receives: its tables, its settings, the kernel's services. */
export type DnsContext = ModuleContext<DnsTables, DnsSettings>;
