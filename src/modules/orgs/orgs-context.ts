import type { ModuleContext } from '../../kernel/module/module-context.ts';
import type { OrgsTables } from './orgs-tables.ts';

/** What the organizations module's code receives. */
export type OrgsContext = ModuleContext<OrgsTables>;
