/**
 * What the game servers module takes from the application: the adapters of the version sources
 * port (sources/version-source.ts), one per source.
 */
import type { SoftwareBuilds, VersionSource } from './sources/version-source.ts';

/** Where addon builds come from; a source left out is off (its files are listed as unknown). */
export interface GameServerSources {
  readonly modrinth?: VersionSource;
  readonly curseforge?: VersionSource;
  readonly paper?: SoftwareBuilds;
}
