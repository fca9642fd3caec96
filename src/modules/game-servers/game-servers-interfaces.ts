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

/** A server as the update check reads it (the API's server fields). */
export interface UpdateCheckServer {
  readonly uuid: string;
  readonly specialization_slug: string;
  readonly version_id: string | null;
  readonly game_version: string | null;
  /** `paper`, `fabric`, `forge` or `none`. */
  readonly loader: string;
}

/** A software record found at a source, as the update check reads it (the API's record fields). */
export interface UpdateCheckRecord {
  readonly record_uuid: string;
  readonly display_name: string;
  readonly kind: 'plugin' | 'mod' | 'datapack';
  readonly source_name: 'modrinth' | 'curseforge';
  readonly project_id: string;
  readonly install_path: string;
  readonly current_version: string;
  readonly current_version_name: string | null;
}

/** How a check is asked for. */
export interface UpdateCheckOptions {
  readonly sources: GameServerSources;
  /** Only entries with a newer build or an error (the `/updates` route), or every record checked. */
  readonly onlyAvailable: boolean;
  /** Whether beta and alpha builds count as updates (release builds are preferred either way). */
  readonly includePrerelease: boolean;
  /** Only these sources (default: every source). */
  readonly only?: readonly ('modrinth' | 'curseforge')[];
  /** Check against a game version the server is about to move to (default: its own). */
  readonly gameVersion?: string;
}

/** A server update entry: a record and the newest build that fits its server. */
export interface ServerUpdateEntry {
  readonly record_uuid: string;
  readonly display_name: string;
  readonly kind: string;
  readonly source_name: string;
  readonly install_path: string;
  readonly current_version: string;
  readonly current_version_name: string | null;
  /** The id of the build `latest` names (null with it). */
  readonly latest_version: string | null;
  /** The build to move to; null when the check failed or nothing fits. */
  readonly latest: {
    readonly version_id: string;
    readonly name: string;
    readonly release_date: string;
    readonly version_type: string;
  } | null;
  readonly update_available: boolean;
  /** ISO 8601. */
  readonly checked_at: string;
  /** Why this entry could not be checked: its source is off or failed (the other entries are unaffected). */
  readonly error?: string;
}

/** An update check's answer: the entries, and the sources switched off (CurseForge without a key). */
export interface UpdatesAnswer {
  readonly updates: ServerUpdateEntry[];
  readonly sources_off: string[];
}

/** The update check of a server's records (the updates feature implements it; the application wires it). */
export type CheckUpdates = (
  server: UpdateCheckServer,
  records: readonly UpdateCheckRecord[],
  options: UpdateCheckOptions,
) => Promise<UpdatesAnswer>;
