import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { TagsTables } from './tags-tables.ts';

/** What the tags module's code receives: its table and the kernel's services. */
export type TagsContext = ModuleContext<TagsTables>;

export function tagsContext(runtime: Runtime): TagsContext {
  return moduleContext<TagsTables>(runtime, 'tags');
}
