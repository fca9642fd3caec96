import { asSourceAnswer, callSource, sourceUrl } from './source-call.ts';
import type { SourceHttp } from './source-http.ts';
import {
  SourceUnavailable,
  type FileDigests,
  type SourceVersion,
  type VersionFilter,
  type VersionSource,
  type VersionType,
} from './version-source.ts';

/** A version as Modrinth's v2 API answers it (the fields used). */
interface ModrinthVersion {
  readonly id: string;
  readonly project_id: string;
  readonly name: string;
  readonly version_number: string;
  readonly date_published: string;
  readonly version_type: VersionType;
  readonly loaders: readonly string[];
  readonly game_versions: readonly string[];
  readonly files: readonly {
    readonly url: string;
    readonly filename: string;
    readonly size: number;
    readonly primary: boolean;
    readonly hashes: { readonly sha1?: string; readonly sha512?: string };
  }[];
}

export interface ModrinthSourceOptions {
  readonly apiUrl: string;
  readonly userAgent: string;
}

/** Modrinth's v2 API (https://docs.modrinth.com/api/): files by hash, a project's versions. */
export class ModrinthSource implements VersionSource {
  readonly name = 'modrinth' as const;

  constructor(
    private readonly http: SourceHttp,
    private readonly options: ModrinthSourceOptions,
  ) {}

  enabled(): boolean {
    return true;
  }

  identify(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>> {
    return asSourceAnswer(failed, () => this.identifyAll(files));
  }

  versions(projectId: string, filter: VersionFilter): Promise<SourceVersion[]> {
    return asSourceAnswer(failed, () => this.versionsOf(projectId, filter));
  }

  version(projectId: string, versionId: string): Promise<SourceVersion | null> {
    return asSourceAnswer(failed, () => this.versionOf(projectId, versionId));
  }

  private async identifyAll(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>> {
    const found = new Map<FileDigests, SourceVersion>();
    if (files.length === 0) return found;
    const answer = (await this.call(
      'POST',
      '/v2/version_files',
      {},
      {
        hashes: files.map((f) => f.sha512),
        algorithm: 'sha512',
      },
    )) as Record<string, ModrinthVersion> | null;
    const byHash = answer ?? {};
    const titles = await this.titles([...new Set(Object.values(byHash).map((v) => v.project_id))]);
    for (const file of files) {
      const v = byHash[file.sha512];
      const version = v === undefined ? null : toSourceVersion(v, titles.get(v.project_id) ?? null);
      if (version !== null) found.set(file, version);
    }
    return found;
  }

  private async versionsOf(projectId: string, filter: VersionFilter): Promise<SourceVersion[]> {
    const query = {
      loaders: filter.loaders.length > 0 ? JSON.stringify(filter.loaders) : undefined,
      game_versions: filter.gameVersions.length > 0 ? JSON.stringify(filter.gameVersions) : undefined,
    };
    const path = `/v2/project/${encodeURIComponent(projectId)}/version`;
    const answer = (await this.call('GET', path, query)) as ModrinthVersion[] | null;
    return (answer ?? [])
      .map((v) => toSourceVersion(v, null))
      .filter((v): v is SourceVersion => v !== null)
      .sort((a, b) => b.releaseDate.localeCompare(a.releaseDate));
  }

  private async versionOf(projectId: string, versionId: string): Promise<SourceVersion | null> {
    const answer = (await this.call(
      'GET',
      `/v2/version/${encodeURIComponent(versionId)}`,
    )) as ModrinthVersion | null;
    if (answer === null || answer.project_id !== projectId) return null;
    return toSourceVersion(answer, null);
  }

  /** Project titles for display; a failure here costs only the names. */
  private async titles(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    try {
      const answer = (await this.call('GET', '/v2/projects', { ids: JSON.stringify(ids) })) as
        { id: string; title: string }[] | null;
      return new Map((answer ?? []).map((p) => [p.id, p.title]));
    } catch {
      return new Map();
    }
  }

  private call(
    method: 'GET' | 'POST',
    path: string,
    query: Readonly<Record<string, string | undefined>> = {},
    body?: unknown,
  ): Promise<unknown> {
    return callSource(this.http, {
      method,
      url: sourceUrl(this.options.apiUrl, path, query),
      headers: { 'user-agent': this.options.userAgent },
      ...(body !== undefined ? { body } : {}),
    });
  }
}

const failed = (message: string) => new SourceUnavailable('modrinth', 'failed', `Modrinth ${message}`);

function toSourceVersion(v: ModrinthVersion, projectName: string | null): SourceVersion | null {
  const file = v.files.find((f) => f.primary) ?? v.files[0];
  if (file === undefined) return null;
  return {
    source: 'modrinth',
    projectId: v.project_id,
    versionId: v.id,
    projectName,
    name: v.name,
    versionNumber: v.version_number,
    releaseDate: new Date(v.date_published).toISOString(),
    versionType: v.version_type,
    loaders: v.loaders,
    gameVersions: v.game_versions,
    file: {
      url: file.url,
      filename: file.filename,
      size: file.size,
      sha1: file.hashes.sha1 ?? null,
      sha512: file.hashes.sha512 ?? null,
    },
  };
}
