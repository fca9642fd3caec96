import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { KeysTables } from './keys-tables.ts';

/** What the keys module's code receives: its tables and the kernel's services. */
export type KeysContext = ModuleContext<KeysTables>;

export function keysContext(runtime: Runtime): KeysContext {
  return moduleContext<KeysTables>(runtime, 'keys');
}
