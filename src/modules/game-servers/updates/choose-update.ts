import type { SourceVersion, VersionType } from '../sources/version-source.ts';

export interface ChooseOptions {
  /** Offer the newest build whatever its type (beta and alpha included). */
  readonly includePrerelease: boolean;
}

/** Lower is steadier. */
const STEADINESS: Readonly<Record<VersionType, number>> = { release: 0, beta: 1, alpha: 2 };

const newestFirst = (a: SourceVersion, b: SourceVersion): number =>
  b.releaseDate.localeCompare(a.releaseDate);

/**
 * The build to offer instead of `current`, or null. Only builds published after the current one
 * count. Without prereleases, the steadiest type among them wins: a newer release over any newer
 * beta, a newer beta only when no newer release exists (and likewise alpha); then the newest of
 * that type. With prereleases, the newest of them whatever its type.
 */
export function chooseUpdate(
  current: SourceVersion,
  candidates: readonly SourceVersion[],
  options: ChooseOptions,
): SourceVersion | null {
  const newer = candidates.filter(
    (c) => c.versionId !== current.versionId && Date.parse(c.releaseDate) > Date.parse(current.releaseDate),
  );
  return bestBuild(newer, options);
}

/** The build to offer among `builds` (all count as newer): as chooseUpdate ranks them. */
export function bestBuild(builds: readonly SourceVersion[], options: ChooseOptions): SourceVersion | null {
  if (builds.length === 0) return null;
  const sorted = [...builds].sort(newestFirst);
  if (options.includePrerelease) return sorted[0]!;
  const steadiest = Math.min(...sorted.map((b) => STEADINESS[b.versionType]));
  return sorted.find((b) => STEADINESS[b.versionType] === steadiest)!;
}
