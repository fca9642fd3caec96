import type { ModuleContext } from '../../kernel/module/module-context.ts';
import type { KeysTables } from './keys-tables.ts';

/** What the keys module's code receives. */
export type KeysContext = ModuleContext<KeysTables>;
