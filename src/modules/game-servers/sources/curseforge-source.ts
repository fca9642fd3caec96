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

/** A file as CurseForge's v1 API answers it (the fields used). */
interface CurseForgeFile {
  readonly id: number;
  readonly modId: number;
  readonly displayName: string;
  readonly fileName: string;
  readonly releaseType: 1 | 2 | 3;
  readonly fileDate: string;
  readonly fileLength: number;
  /** Null when the author does not allow downloads outside CurseForge's own app. */
  readonly downloadUrl: string | null;
  readonly hashes: readonly { readonly value: string; readonly algo: 1 | 2 }[];
  /** Game versions and loader names (`1.21.1`, `Fabric`, `Server`, `Java 21`) in one list. */
  readonly gameVersions: readonly string[];
  readonly fileFingerprint: number;
}

interface Pagination {
  readonly index: number;
  readonly pageSize: number;
  readonly resultCount: number;
  readonly totalCount: number;
}

export interface CurseForgeSourceOptions {
  readonly apiUrl: string;
  /** Null: the source is off. */
  readonly apiKey: string | null;
  readonly userAgent: string;
}

/** Minecraft's game id at CurseForge. */
export const CURSEFORGE_MINECRAFT = 432;
export const CURSEFORGE_PAGE_SIZE = 50;
/** A project's files are read this far at most (newest first): 1,000 files. */
export const CURSEFORGE_MAX_PAGES = 20;

/** CurseForge's ModLoaderType numbers (0 is any). */
const LOADER_TYPES: Readonly<Record<string, number>> = { forge: 1, fabric: 4, quilt: 5, neoforge: 6 };
const LOADER_NAMES = new Set(['forge', 'fabric', 'quilt', 'neoforge', 'liteloader', 'cauldron']);
const RELEASE_TYPES: Readonly<Record<number, VersionType>> = { 1: 'release', 2: 'beta', 3: 'alpha' };

/** CurseForge's v1 API (https://docs.curseforge.com/rest-api/): files by fingerprint, a mod's files. */
export class CurseForgeSource implements VersionSource {
  readonly name = 'curseforge' as const;

  constructor(
    private readonly http: SourceHttp,
    private readonly options: CurseForgeSourceOptions,
  ) {}

  enabled(): boolean {
    return this.options.apiKey !== null;
  }

  identify(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>> {
    return this.answer(() => this.identifyAll(files));
  }

  versions(projectId: string, filter: VersionFilter): Promise<SourceVersion[]> {
    return this.answer(() => this.versionsOf(projectId, filter));
  }

  version(projectId: string, versionId: string): Promise<SourceVersion | null> {
    return this.answer(() => this.versionOf(projectId, versionId));
  }

  private answer<T>(run: () => Promise<T>): Promise<T> {
    if (!this.enabled()) {
      return Promise.reject(
        new SourceUnavailable('curseforge', 'off', 'CurseForge is off: no CURSEFORGE_API_KEY'),
      );
    }
    return asSourceAnswer(failed, run);
  }

  private async identifyAll(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>> {
    const found = new Map<FileDigests, SourceVersion>();
    if (files.length === 0) return found;
    const answer = (await this.call(
      'POST',
      `/v1/fingerprints/${CURSEFORGE_MINECRAFT}`,
      {},
      {
        fingerprints: [...new Set(files.map((f) => f.fingerprint))],
      },
    )) as { data: { exactMatches: readonly { id: number; file: CurseForgeFile }[] } } | null;
    const matches = answer?.data.exactMatches ?? [];
    const names = await this.modNames([...new Set(matches.map((m) => m.id))]);
    const byFingerprint = new Map(matches.map((m) => [m.file.fileFingerprint, m.file]));
    for (const file of files) {
      const match = byFingerprint.get(file.fingerprint);
      if (match !== undefined) found.set(file, toSourceVersion(match, names.get(match.modId) ?? null));
    }
    return found;
  }

  private async versionsOf(projectId: string, filter: VersionFilter): Promise<SourceVersion[]> {
    const files: CurseForgeFile[] = [];
    const loaderType = filter.loaders.map((l) => LOADER_TYPES[l.toLowerCase()]).find((t) => t !== undefined);
    const query = {
      gameVersion: filter.gameVersions.length === 1 ? filter.gameVersions[0] : '',
      modLoaderType: filter.loaders.length === 1 && loaderType !== undefined ? String(loaderType) : '',
      pageSize: String(CURSEFORGE_PAGE_SIZE),
    };
    const path = `/v1/mods/${encodeURIComponent(projectId)}/files`;
    for (let page = 0; page < CURSEFORGE_MAX_PAGES; page++) {
      const index = String(page * CURSEFORGE_PAGE_SIZE);
      const answer = (await this.call('GET', path, { ...query, index })) as {
        data: CurseForgeFile[];
        pagination: Pagination;
      } | null;
      if (answer === null) return [];
      files.push(...answer.data);
      const { index: at, resultCount, totalCount } = answer.pagination;
      if (resultCount === 0 || at + resultCount >= totalCount) break;
    }
    return files
      .map((f) => toSourceVersion(f, null))
      .filter((v) => fits(v, filter))
      .sort((a, b) => b.releaseDate.localeCompare(a.releaseDate));
  }

  private async versionOf(projectId: string, versionId: string): Promise<SourceVersion | null> {
    const path = `/v1/mods/${encodeURIComponent(projectId)}/files/${encodeURIComponent(versionId)}`;
    const answer = (await this.call('GET', path)) as { data: CurseForgeFile } | null;
    return answer === null ? null : toSourceVersion(answer.data, null);
  }

  /** Mod names for display; a failure here costs only the names. */
  private async modNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    try {
      const answer = (await this.call('POST', '/v1/mods', {}, { modIds: ids })) as {
        data: readonly { id: number; name: string }[];
      } | null;
      return new Map((answer?.data ?? []).map((m) => [m.id, m.name]));
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
      headers: { 'x-api-key': this.options.apiKey ?? '', 'user-agent': this.options.userAgent },
      ...(body !== undefined ? { body } : {}),
    });
  }
}

const failed = (message: string) => new SourceUnavailable('curseforge', 'failed', `CurseForge ${message}`);

/** The filter again, on our side: the API takes one game version and one loader type at most. */
function fits(v: SourceVersion, filter: VersionFilter): boolean {
  const game =
    filter.gameVersions.length === 0 || v.gameVersions.some((g) => filter.gameVersions.includes(g));
  const loaders = filter.loaders.map((l) => l.toLowerCase());
  const loader = loaders.length === 0 || v.loaders.length === 0 || v.loaders.some((l) => loaders.includes(l));
  return game && loader;
}

function toSourceVersion(f: CurseForgeFile, projectName: string | null): SourceVersion {
  const type = RELEASE_TYPES[f.releaseType];
  if (type === undefined) throw new TypeError(`releaseType ${f.releaseType}`);
  return {
    source: 'curseforge',
    projectId: String(f.modId),
    versionId: String(f.id),
    projectName,
    name: f.displayName,
    versionNumber: f.displayName,
    releaseDate: new Date(f.fileDate).toISOString(),
    versionType: type,
    loaders: f.gameVersions.map((g) => g.toLowerCase()).filter((g) => LOADER_NAMES.has(g)),
    gameVersions: f.gameVersions.filter((g) => /^\d+\.\d+/.test(g)),
    file: {
      url: f.downloadUrl ?? '',
      filename: f.fileName,
      size: f.fileLength,
      sha1: f.hashes.find((h) => h.algo === 1)?.value ?? null,
      sha512: null,
    },
  };
}
