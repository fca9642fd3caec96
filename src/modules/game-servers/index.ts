/** The game servers module's public surface. */
export {
  createGameServersModule,
  type GameServersModule,
  type GameServersModuleDeps,
} from './game-servers-module.ts';
export type {
  CheckUpdates,
  GameServerSources,
  ServerUpdateEntry,
  UpdateCheckOptions,
  UpdateCheckRecord,
  UpdateCheckServer,
} from './game-servers-interfaces.ts';
export { gameServersConfig, type GameServersSettings } from './game-servers-config.ts';
export { gameServerSourcesConfig, type GameServerSourcesSettings } from './sources/sources-config.ts';
export type {
  FileDigests,
  SoftwareBuilds,
  SourceName,
  SourceVersion,
  VersionFilter,
  VersionSource,
} from './sources/version-source.ts';
export { SourceUnavailable } from './sources/version-source.ts';
