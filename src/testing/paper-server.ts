/**
 * Test helper: a local server answering as Paper's Fill v3 API (https://fill.papermc.io) does for
 * `GET /v3/projects/{project}/versions/{version}/builds`: the version's builds, newest first, each
 * with `id`, `time`, `channel`, `commits` and `downloads["server:default"]` (name, SHA-256, size,
 * url). Fill refuses requests without a User-Agent (400) and answers 404 `{error, message}` for an
 * unknown project or version. Jars are served under `/v1/objects/{sha256}/{name}`, as on
 * fill-data.papermc.io.
 */
import { createHash } from 'node:crypto';
import { startGameSourceServer, type GameSourceServer, type JsonAnswer } from './game-source-server.ts';

export interface PaperBuildSpec {
  readonly id: number;
  readonly time: string;
  readonly channel: 'STABLE' | 'BETA' | 'ALPHA' | 'RECOMMENDED';
  readonly bytes: Buffer;
}

/** Project (`paper`) → game version (`1.21.1`) → builds. */
export type PaperProjects = Readonly<Record<string, Readonly<Record<string, readonly PaperBuildSpec[]>>>>;

export async function startPaperServer(projects: PaperProjects): Promise<GameSourceServer> {
  const files = new Map<string, Buffer>();
  const builds = new Map<string, Record<string, unknown>[]>();
  return startGameSourceServer((base) => {
    for (const [project, versions] of Object.entries(projects)) {
      for (const [version, list] of Object.entries(versions)) {
        builds.set(
          `${project}/${version}`,
          list.map((b) => {
            const sha256 = createHash('sha256').update(b.bytes).digest('hex');
            const name = `${project}-${version}-${b.id}.jar`;
            const path = `/v1/objects/${sha256}/${name}`;
            files.set(path, b.bytes);
            return {
              id: b.id,
              time: b.time,
              channel: b.channel,
              commits: [{ sha: sha256.slice(0, 40), time: b.time, message: `Build ${b.id}` }],
              downloads: {
                'server:default': { name, checksums: { sha256 }, size: b.bytes.length, url: base + path },
              },
            };
          }),
        );
      }
    }
    return {
      files,
      handle: (req, url): JsonAnswer => {
        if (!req.headers['user-agent']) {
          return { status: 400, json: { error: 'bad_request', message: 'A User-Agent header is required' } };
        }
        const m = /^\/v3\/projects\/([^/]+)\/versions\/([^/]+)\/builds$/.exec(url.pathname);
        const list = m ? builds.get(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`) : undefined;
        if (req.method !== 'GET' || list === undefined) {
          return { status: 404, json: { error: 'not_found', message: 'Version not found.' } };
        }
        return { status: 200, json: [...list].sort((a, b) => (b.id as number) - (a.id as number)) };
      },
    };
  });
}
