import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { gameServersConfig, type GameServersSettings } from './game-servers-config.ts';
import type { GameServersTables } from './game-servers-tables.ts';

/** What the game servers module's code receives: its tables, its settings, the kernel's services. */
export type GameServersContext = ModuleContext<GameServersTables, GameServersSettings>;

export function gameServersContext(runtime: Runtime): GameServersContext {
  return moduleContext<GameServersTables, GameServersSettings>(runtime, 'game-servers', gameServersConfig);
}
