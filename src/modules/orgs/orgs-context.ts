import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { OrgsTables } from './orgs-tables.ts';

/** What the organizations module's code receives: its tables and the kernel's services. */
export type OrgsContext = ModuleContext<OrgsTables>;

export function orgsContext(runtime: Runtime): OrgsContext {
  return moduleContext<OrgsTables>(runtime, 'orgs');
}
