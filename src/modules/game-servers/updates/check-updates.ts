import { systemClock, type Clock } from '../../../kernel/clock.ts';
import {
  SourceUnavailable,
  type SourceName,
  type SourceVersion,
  type VersionSource,
  type VersionType,
} from '../sources/version-source.ts';
import { bestBuild, chooseUpdate } from './choose-update.ts';
import { loadersFor } from './server-loaders.ts';

/** What an update check needs of an installed file's record. */
export interface UpdateRecord {
  readonly record_uuid: string;
  readonly display_name: string;
  /** `plugin`, `mod`, `datapack`, ... */
  readonly kind: string;
  readonly source_name: SourceName | 'unknown';
  /** The project at its source (a Modrinth project id, a CurseForge mod id); null when unknown. */
  readonly project_id: string | null;
  readonly install_path: string;
  /** The installed build's id at its source. */
  readonly current_version: string | null;
  readonly current_version_name: string | null;
}

/** What an update check needs of the server. */
export interface UpdateServer {
  /** `paper`, `fabric`, `forge`, ... */
  readonly loader: string;
  readonly game_version: string;
}

export interface UpdateCheckOptions {
  /** Offer betas and alphas newer than a release (default false). */
  readonly include_prerelease?: boolean;
  /** Only these sources (default: all). */
  readonly sources?: readonly SourceName[];
  /** Check against the game version the server is about to move to (default: its own). */
  readonly game_version?: string;
}

export interface UpdateEntry {
  readonly record_uuid: string;
  readonly display_name: string;
  readonly kind: string;
  readonly source_name: SourceName;
  readonly install_path: string;
  readonly current_version: string | null;
  readonly current_version_name: string | null;
  /** The build to move to; when no update, the installed build if it still fits, else null. */
  readonly latest: {
    readonly version_id: string;
    readonly name: string;
    readonly release_date: string;
    readonly version_type: VersionType;
  } | null;
  readonly update_available: boolean;
  readonly checked_at: string;
  /** Why this entry could not be checked (its source is off or failed). */
  readonly error?: string;
}

export interface UpdatesAnswer {
  readonly updates: UpdateEntry[];
  /** Sources switched off (CurseForge without a key): their entries carry an error. */
  readonly sources_off: SourceName[];
}

/** Records of one source checked at once. */
const PER_SOURCE_CONCURRENCY = 4;

/**
 * Checks each installed file that came from a source (files of unknown origin are never listed)
 * for a newer build that fits the server's loader and game version. A source that fails gives
 * its own entries an `error` (and is not asked again in this check); the others are unaffected.
 */
export async function checkUpdates(
  records: readonly UpdateRecord[],
  server: UpdateServer,
  options: UpdateCheckOptions,
  sources: readonly VersionSource[],
  clock: Clock = systemClock,
): Promise<UpdatesAnswer> {
  const wanted = sources.filter((s) => options.sources === undefined || options.sources.includes(s.name));
  const check = new Check(server, options, new Date(clock.now()).toISOString());
  const perSource = wanted.map((source) =>
    check.all(
      source,
      records.filter((r) => r.source_name === source.name),
    ),
  );
  const done = new Map((await Promise.all(perSource)).flat().map((e) => [e.record_uuid, e]));
  return {
    updates: records.flatMap((r) => done.get(r.record_uuid) ?? []),
    sources_off: wanted.filter((s) => !s.enabled()).map((s) => s.name),
  };
}

class Check {
  private readonly failed = new Map<SourceName, string>();
  private readonly target: string;
  private readonly includePrerelease: boolean;

  constructor(
    private readonly server: UpdateServer,
    options: UpdateCheckOptions,
    private readonly checkedAt: string,
  ) {
    this.target = options.game_version ?? server.game_version;
    this.includePrerelease = options.include_prerelease ?? false;
  }

  async all(source: VersionSource, records: readonly UpdateRecord[]): Promise<UpdateEntry[]> {
    const entries: UpdateEntry[] = [];
    for (let i = 0; i < records.length; i += PER_SOURCE_CONCURRENCY) {
      const batch = records.slice(i, i + PER_SOURCE_CONCURRENCY);
      entries.push(...(await Promise.all(batch.map((r) => this.one(source, r)))));
    }
    return entries;
  }

  private async one(source: VersionSource, record: UpdateRecord): Promise<UpdateEntry> {
    if (!source.enabled()) return this.entry(record, source.name, null, { error: `${source.name} is off` });
    const failed = this.failed.get(source.name);
    if (failed !== undefined) return this.entry(record, source.name, null, { error: failed });
    if (record.project_id === null || record.current_version === null) {
      return this.entry(record, source.name, null, { error: `not identified at ${source.name}` });
    }
    try {
      return await this.compare(source, record, record.project_id, record.current_version);
    } catch (error) {
      if (!(error instanceof SourceUnavailable)) throw error;
      if (error.reason === 'failed') this.failed.set(source.name, error.message);
      return this.entry(record, source.name, null, { error: error.message });
    }
  }

  private async compare(
    source: VersionSource,
    record: UpdateRecord,
    projectId: string,
    currentId: string,
  ): Promise<UpdateEntry> {
    const filter = { loaders: loadersFor(this.server.loader, record.kind), gameVersions: [this.target] };
    const [current, candidates] = await Promise.all([
      source.version(projectId, currentId),
      source.versions(projectId, filter),
    ]);
    const choice = { includePrerelease: this.includePrerelease };
    const others = candidates.filter((c) => c.versionId !== currentId);
    // The installed build gone from the source, or not made for the target version: any fitting build is an update.
    const anyFits = current === null || !current.gameVersions.includes(this.target);
    const update = anyFits ? bestBuild(others, choice) : chooseUpdate(current, candidates, choice);
    const latest = update ?? candidates.find((c) => c.versionId === currentId) ?? null;
    return this.entry(record, source.name, latest, { update: update !== null });
  }

  private entry(
    record: UpdateRecord,
    source: SourceName,
    latest: SourceVersion | null,
    outcome: { readonly update?: boolean; readonly error?: string },
  ): UpdateEntry {
    return {
      record_uuid: record.record_uuid,
      display_name: record.display_name,
      kind: record.kind,
      source_name: source,
      install_path: record.install_path,
      current_version: record.current_version,
      current_version_name: record.current_version_name,
      latest:
        latest === null
          ? null
          : {
              version_id: latest.versionId,
              name: latest.name,
              release_date: latest.releaseDate,
              version_type: latest.versionType,
            },
      update_available: outcome.update ?? false,
      checked_at: this.checkedAt,
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    };
  }
}
