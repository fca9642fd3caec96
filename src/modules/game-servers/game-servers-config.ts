import path from 'node:path';
import { defineConfigSection } from '../../kernel/config/config-section.ts';

export interface GameServersSettings {
  /** Where each server's directory is: `<root>/<uuid>/` (default `<DATA_DIR>/servers`). */
  readonly root: string;
  /** The largest addon file a job downloads, in bytes. */
  readonly softwareMaxBytes: number;
}

export const gameServersConfig = defineConfigSection<GameServersSettings>('game-servers', (env) => {
  const root = env.optional('GAME_SERVERS_ROOT');
  return {
    root: path.resolve(root ?? path.join(env.str('DATA_DIR', './data'), 'servers')),
    softwareMaxBytes: env.int('SOFTWARE_MAX_BYTES', 256 * 1024 * 1024, 1, 4 * 1024 ** 3),
  };
});

// The sources' settings are read at start with the rest: this file is the module's settings door.
export { gameServerSourcesConfig, type GameServerSourcesSettings } from './sources/sources-config.ts';
