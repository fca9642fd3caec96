import type { Clock } from '../../../kernel/clock.ts';
import type { FileDigests, SourceVersion, VersionFilter, VersionSource } from './version-source.ts';

/** A project's answers are kept this long by default (GAME_SOURCES_CACHE_S). */
export const SOURCE_CACHE_MS = 10 * 60 * 1000;

interface Entry {
  readonly until: number;
  readonly answer: Promise<unknown>;
}

/**
 * A source whose per-project answers (its builds for a filter, one build) are kept for a while,
 * so repeated update checks of many servers ask the source once. Failures are not kept: the next
 * check asks again. Identification is by file and is not kept.
 */
export class CachedVersionSource implements VersionSource {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: VersionSource,
    private readonly clock: Clock,
    private readonly ttlMs: number = SOURCE_CACHE_MS,
  ) {}

  get name(): VersionSource['name'] {
    return this.inner.name;
  }

  enabled(): boolean {
    return this.inner.enabled();
  }

  identify(files: readonly FileDigests[]): Promise<Map<FileDigests, SourceVersion>> {
    return this.inner.identify(files);
  }

  versions(projectId: string, filter: VersionFilter): Promise<SourceVersion[]> {
    const key = JSON.stringify([
      'versions',
      projectId,
      [...filter.loaders].sort(),
      [...filter.gameVersions].sort(),
    ]);
    return this.kept(key, () => this.inner.versions(projectId, filter));
  }

  version(projectId: string, versionId: string): Promise<SourceVersion | null> {
    return this.kept(JSON.stringify(['version', projectId, versionId]), () =>
      this.inner.version(projectId, versionId),
    );
  }

  private kept<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.until > now) return entry.answer as Promise<T>;
    this.dropExpired(now);
    const answer = ask();
    this.entries.set(key, { until: now + this.ttlMs, answer });
    answer.catch(() => {
      if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
    });
    return answer;
  }

  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}
