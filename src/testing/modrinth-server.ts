/**
 * Test helper: a local server answering as Modrinth's v2 API documents it
 * (https://docs.modrinth.com/api/) for what the Modrinth adapter uses: `POST /v2/version_files`
 * (hash → version), `GET /v2/project/{id|slug}/version` with JSON-array `loaders` and
 * `game_versions` filters, `GET /v2/version/{id}`, `GET /v2/project/{id|slug}` and
 * `GET /v2/projects?ids=[...]`. Errors as Modrinth sends them: 400 `{error, description}` for bad
 * input, 404 with an empty body for what does not exist. Files are served under
 * `/data/{project}/versions/{version}/{filename}`, as on cdn.modrinth.com.
 */
import { createHash } from 'node:crypto';
import {
  jsonBody,
  startGameSourceServer,
  type GameSourceServer,
  type JsonAnswer,
  type RecordedRequest,
} from './game-source-server.ts';

export interface ModrinthVersionSpec {
  readonly id: string;
  readonly name?: string;
  readonly version_number: string;
  readonly date_published: string;
  readonly version_type?: 'release' | 'beta' | 'alpha';
  readonly loaders: readonly string[];
  readonly game_versions: readonly string[];
  readonly filename: string;
  readonly bytes: Buffer;
}

export interface ModrinthProjectSpec {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly versions: readonly ModrinthVersionSpec[];
}

export interface ModrinthServer extends GameSourceServer {
  /** Versions as the API answers them, by id. */
  readonly versions: Map<string, Record<string, unknown>>;
}

const invalid = (description: string): JsonAnswer => ({
  status: 400,
  json: { error: 'invalid_input', description },
});

export async function startModrinthServer(projects: readonly ModrinthProjectSpec[]): Promise<ModrinthServer> {
  const versions = new Map<string, Record<string, unknown>>();
  const files = new Map<string, Buffer>();
  const server = await startGameSourceServer((base) => {
    for (const p of projects) {
      for (const v of p.versions) {
        const path = `/data/${p.id}/versions/${v.id}/${v.filename}`;
        files.set(path, v.bytes);
        versions.set(v.id, versionJson(p, v, base + path));
      }
    }
    return { files, handle: (req, url) => handle(projects, versions, req, url) };
  });
  return Object.assign(server, { versions });
}

function versionJson(p: ModrinthProjectSpec, v: ModrinthVersionSpec, url: string): Record<string, unknown> {
  return {
    game_versions: v.game_versions,
    loaders: v.loaders,
    id: v.id,
    project_id: p.id,
    author_id: 'Zz9aBcDe',
    featured: false,
    name: v.name ?? `${p.title} ${v.version_number}`,
    version_number: v.version_number,
    changelog: `Changes in ${v.version_number}`,
    changelog_url: null,
    date_published: v.date_published,
    downloads: 1000,
    version_type: v.version_type ?? 'release',
    status: 'listed',
    requested_status: null,
    files: [
      {
        hashes: {
          sha512: createHash('sha512').update(v.bytes).digest('hex'),
          sha1: createHash('sha1').update(v.bytes).digest('hex'),
        },
        url,
        filename: v.filename,
        primary: true,
        size: v.bytes.length,
        file_type: null,
      },
    ],
    dependencies: [],
  };
}

function handle(
  projects: readonly ModrinthProjectSpec[],
  versions: Map<string, Record<string, unknown>>,
  req: RecordedRequest,
  url: URL,
): JsonAnswer {
  const path = url.pathname;
  const project = (idOrSlug: string) => projects.find((p) => p.id === idOrSlug || p.slug === idOrSlug);
  if (req.method === 'POST' && path === '/v2/version_files') return versionFiles(versions, req);
  if (req.method !== 'GET') return { status: 405 };
  let m = /^\/v2\/project\/([^/]+)\/version$/.exec(path);
  if (m) {
    const p = project(decodeURIComponent(m[1]!));
    if (p === undefined) return { status: 404 };
    const loaders = jsonArrayParam(url, 'loaders');
    const games = jsonArrayParam(url, 'game_versions');
    if (loaders === 'invalid' || games === 'invalid')
      return invalid('Error while parsing query: not a JSON array');
    const list = p.versions
      .map((v) => versions.get(v.id)!)
      .filter((v) => loaders === null || (v.loaders as string[]).some((l) => loaders.includes(l)))
      .filter((v) => games === null || (v.game_versions as string[]).some((g) => games.includes(g)))
      .sort((a, b) => String(b.date_published).localeCompare(String(a.date_published)));
    return { status: 200, json: list };
  }
  m = /^\/v2\/version\/([^/]+)$/.exec(path);
  if (m) {
    const v = versions.get(decodeURIComponent(m[1]!));
    return v === undefined ? { status: 404 } : { status: 200, json: v };
  }
  m = /^\/v2\/project\/([^/]+)$/.exec(path);
  if (m) {
    const p = project(decodeURIComponent(m[1]!));
    return p === undefined ? { status: 404 } : { status: 200, json: projectJson(p) };
  }
  if (path === '/v2/projects') {
    const ids = jsonArrayParam(url, 'ids');
    if (ids === null || ids === 'invalid') return invalid('Error while parsing query: ids');
    return {
      status: 200,
      json: projects.filter((p) => ids.includes(p.id) || ids.includes(p.slug)).map(projectJson),
    };
  }
  return { status: 404 };
}

function versionFiles(versions: Map<string, Record<string, unknown>>, req: RecordedRequest): JsonAnswer {
  const body = jsonBody(req) as { hashes?: unknown; algorithm?: unknown } | null;
  if (body === null || !Array.isArray(body.hashes)) return invalid('Error while parsing JSON: hashes');
  if (body.algorithm !== 'sha1' && body.algorithm !== 'sha512') return invalid('algorithm: sha1 or sha512');
  const algorithm = body.algorithm;
  const answer: Record<string, unknown> = {};
  for (const v of versions.values()) {
    const hash = (v.files as { hashes: Record<string, string> }[])[0]!.hashes[algorithm]!;
    if ((body.hashes as unknown[]).includes(hash)) answer[hash] = v;
  }
  return { status: 200, json: answer };
}

function projectJson(p: ModrinthProjectSpec): Record<string, unknown> {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    project_type: 'mod',
    versions: p.versions.map((v) => v.id),
  };
}

/** A JSON-array query parameter: null when absent, 'invalid' when it is not an array of strings. */
function jsonArrayParam(url: URL, name: string): string[] | null | 'invalid' {
  const raw = url.searchParams.get(name);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) && parsed.every((e) => typeof e === 'string') ? parsed : 'invalid';
  } catch {
    return 'invalid';
  }
}
