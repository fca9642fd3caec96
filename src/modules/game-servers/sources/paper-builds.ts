import { asSourceAnswer, callSource, sourceUrl } from './source-call.ts';
import type { SourceHttp } from './source-http.ts';
import type { SoftwareBuilds } from './version-source.ts';

/** A build as Paper's Fill v3 API answers it (the fields used). */
interface FillBuild {
  readonly id: number;
  readonly time: string;
  readonly channel: 'STABLE' | 'BETA' | 'ALPHA' | 'RECOMMENDED';
  readonly downloads: Readonly<
    Record<string, { name: string; checksums: { sha256: string }; size: number; url: string }>
  >;
}

/** Paper's builds could not be read (a timeout, a 5xx, an answer that is not JSON). */
export class SoftwareBuildsUnavailable extends Error {
  readonly reason = 'failed' as const;
}

export interface PaperBuildsOptions {
  readonly apiUrl: string;
  /** Fill refuses requests without a descriptive User-Agent (`<product>/<version> (<contact>)`). */
  readonly userAgent: string;
}

/** Channels Paper recommends for servers, before the experimental ones. */
const STABLE_CHANNELS = new Set(['STABLE', 'RECOMMENDED']);

/** Paper's Fill v3 API (https://fill.papermc.io): the builds of paper, folia, velocity. */
export class PaperBuilds implements SoftwareBuilds {
  constructor(
    private readonly http: SourceHttp,
    private readonly options: PaperBuildsOptions,
  ) {}

  /**
   * The newest stable build for the game version, else the newest build of any channel (a game
   * version only in testing), or null when Paper has no such project or version.
   */
  latestBuild(
    project: string,
    gameVersion: string,
  ): Promise<{ build: number; channel: string; url: string | null } | null> {
    return asSourceAnswer(
      (message) => new SoftwareBuildsUnavailable(`Paper ${message}`),
      async () => {
        const path = `/v3/projects/${encodeURIComponent(project)}/versions/${encodeURIComponent(gameVersion)}/builds`;
        const builds = (await callSource(this.http, {
          method: 'GET',
          url: sourceUrl(this.options.apiUrl, path),
          headers: { 'user-agent': this.options.userAgent },
        })) as FillBuild[] | null;
        if (builds === null || builds.length === 0) return null;
        const newestFirst = [...builds].sort((a, b) => b.id - a.id);
        const best = newestFirst.find((b) => STABLE_CHANNELS.has(b.channel)) ?? newestFirst[0]!;
        return { build: best.id, channel: best.channel, url: best.downloads['server:default']?.url ?? null };
      },
    );
  }
}
