/**
 * Where addon builds come from (Modrinth, CurseForge) and the server software's own builds (Paper),
 * behind one port: the game servers module asks it which project a file is, what builds a project
 * has for a loader and game version, and downloads nothing itself (the job does, through the
 * outbound guard, with the hashes given here).
 */

export type SourceName = 'modrinth' | 'curseforge';
export type VersionType = 'release' | 'beta' | 'alpha';

/** A file's digests as the sources look files up: SHA-1/SHA-512 (Modrinth), fingerprint (CurseForge). */
export interface FileDigests {
  readonly sha1: string;
  readonly sha512: string;
  /** CurseForge's fingerprint: MurmurHash2 (seed 1) of the file without whitespace bytes (9, 10, 13, 32). */
  readonly fingerprint: number;
}

/** A build of a project at a source. */
export interface SourceVersion {
  readonly source: SourceName;
  readonly projectId: string;
  readonly versionId: string;
  /** The project's name (`LuckPerms`), when the source said it. */
  readonly projectName: string | null;
  /** The build's display name (`LuckPerms 5.4.121`). */
  readonly name: string;
  /** Its version number (`5.4.121`). */
  readonly versionNumber: string;
  /** ISO 8601. */
  readonly releaseDate: string;
  readonly versionType: VersionType;
  readonly loaders: readonly string[];
  readonly gameVersions: readonly string[];
  /** The primary file: where to fetch it and the digests it must have. */
  readonly file: {
    readonly url: string;
    readonly filename: string;
    readonly size: number;
    readonly sha1: string | null;
    readonly sha512: string | null;
  };
}

export interface VersionFilter {
  /** A build for any of these: `paper`, `fabric`, `forge`, ... (empty: any). */
  readonly loaders: readonly string[];
  /** A build for any of these: `1.21.1`, ... (empty: any). */
  readonly gameVersions: readonly string[];
}

/** A source that is off (CurseForge without a key), or that failed: its error, per call. */
export class SourceUnavailable extends Error {
  constructor(
    readonly source: SourceName,
    readonly reason: 'off' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface VersionSource {
  readonly name: SourceName;
  /** False when the source is switched off (CurseForge without CURSEFORGE_API_KEY). */
  enabled(): boolean;
  /** The builds these files are, by their digests; files the source does not know are absent. */
  identify(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>>;
  /** A project's builds that fit the filter, newest first (throws SourceUnavailable). */
  versions(projectId: string, filter: VersionFilter): Promise<SourceVersion[]>;
  /** One build of a project, or null. */
  version(projectId: string, versionId: string): Promise<SourceVersion | null>;
}

/** The server software's own builds (Paper's Fill API): shown on the server, never as an update entry. */
export interface SoftwareBuilds {
  /** The newest build of `project` (`paper`) for a game version, or null; throws SourceUnavailable-like errors. */
  latestBuild(
    project: string,
    gameVersion: string,
  ): Promise<{ build: number; channel: string; url: string | null } | null>;
}
