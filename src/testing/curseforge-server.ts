/**
 * Test helper: a local server answering as CurseForge's v1 API documents it
 * (https://docs.curseforge.com/rest-api/) for what the CurseForge adapter uses:
 * `POST /v1/fingerprints` and `/v1/fingerprints/{gameId}`, `GET /v1/mods/{modId}/files` (filters
 * `gameVersion` and `modLoaderType`, paging by `index` and `pageSize` ≤ 50, with `pagination`),
 * `GET /v1/mods/{modId}/files/{fileId}`, `POST /v1/mods`. Every request needs the key in
 * `x-api-key` (403 otherwise). Empty parameters, as CurseForge's own client sends them
 * (`gameVersion=`), count as absent. Files are served under `/files/{id / 1000}/{id % 1000}/{name}`,
 * as on edge.forgecdn.net; a file may have no download URL (its author allows none).
 */
import { createHash } from 'node:crypto';
import {
  jsonBody,
  startGameSourceServer,
  type GameSourceServer,
  type JsonAnswer,
  type RecordedRequest,
} from './game-source-server.ts';

export interface CurseForgeFileSpec {
  readonly id: number;
  readonly displayName: string;
  readonly fileName: string;
  /** 1 release, 2 beta, 3 alpha. */
  readonly releaseType?: 1 | 2 | 3;
  readonly fileDate: string;
  /** Game versions and loader names, as CurseForge lists them (`1.21.1`, `Fabric`). */
  readonly gameVersions: readonly string[];
  readonly bytes: Buffer;
  /** False: `downloadUrl` is null. */
  readonly distributable?: boolean;
}

export interface CurseForgeModSpec {
  readonly id: number;
  readonly name: string;
  readonly files: readonly CurseForgeFileSpec[];
}

export interface CurseForgeServer extends GameSourceServer {
  readonly apiKey: string;
}

/** ModLoaderType → the name CurseForge lists in a file's gameVersions. */
const LOADER_NAMES: Readonly<Record<number, string>> = { 1: 'Forge', 4: 'Fabric', 5: 'Quilt', 6: 'NeoForge' };

const badRequest: JsonAnswer = { status: 400 };

export async function startCurseForgeServer(
  mods: readonly CurseForgeModSpec[],
  apiKey = 'test-curseforge-key',
): Promise<CurseForgeServer> {
  const files = new Map<string, Buffer>();
  const fileJson = new Map<number, Record<string, unknown>>();
  const server = await startGameSourceServer((base) => {
    for (const mod of mods) {
      for (const f of mod.files) {
        const path = `/files/${Math.floor(f.id / 1000)}/${f.id % 1000}/${f.fileName}`;
        files.set(path, f.bytes);
        fileJson.set(f.id, toFileJson(mod, f, f.distributable === false ? null : base + path));
      }
    }
    return {
      files,
      handle: (req, url) =>
        req.headers['x-api-key'] !== apiKey ? { status: 403 } : handle(mods, fileJson, req, url),
    };
  });
  return Object.assign(server, { apiKey });
}

function toFileJson(
  mod: CurseForgeModSpec,
  f: CurseForgeFileSpec,
  url: string | null,
): Record<string, unknown> {
  return {
    id: f.id,
    gameId: 432,
    modId: mod.id,
    isAvailable: true,
    displayName: f.displayName,
    fileName: f.fileName,
    releaseType: f.releaseType ?? 1,
    fileStatus: 4,
    hashes: [
      { value: createHash('sha1').update(f.bytes).digest('hex'), algo: 1 },
      { value: createHash('md5').update(f.bytes).digest('hex'), algo: 2 },
    ],
    fileDate: f.fileDate,
    fileLength: f.bytes.length,
    downloadCount: 100,
    downloadUrl: url,
    gameVersions: f.gameVersions,
    sortableGameVersions: f.gameVersions.map((g) => ({ gameVersionName: g, gameVersion: g })),
    dependencies: [],
    alternateFileId: 0,
    isServerPack: false,
    fileFingerprint: curseForgeFingerprint(f.bytes),
    modules: [],
  };
}

function handle(
  mods: readonly CurseForgeModSpec[],
  fileJson: Map<number, Record<string, unknown>>,
  req: RecordedRequest,
  url: URL,
): JsonAnswer {
  const path = url.pathname;
  if (req.method === 'POST' && /^\/v1\/fingerprints(\/\d+)?$/.test(path)) return fingerprints(fileJson, req);
  if (req.method === 'POST' && path === '/v1/mods') {
    const body = jsonBody(req) as { modIds?: unknown } | null;
    if (body === null || !Array.isArray(body.modIds)) return badRequest;
    const ids = body.modIds as unknown[];
    return {
      status: 200,
      json: {
        data: mods.filter((m) => ids.includes(m.id)).map((m) => ({ id: m.id, gameId: 432, name: m.name })),
      },
    };
  }
  if (req.method !== 'GET') return { status: 404 };
  let m = /^\/v1\/mods\/(\d+)\/files$/.exec(path);
  if (m) {
    const mod = mods.find((x) => x.id === Number(m![1]));
    return mod === undefined ? { status: 404 } : modFiles(mod, fileJson, url);
  }
  m = /^\/v1\/mods\/(\d+)\/files\/(\d+)$/.exec(path);
  if (m) {
    const f = fileJson.get(Number(m[2]));
    return f === undefined || f.modId !== Number(m[1]) ? { status: 404 } : { status: 200, json: { data: f } };
  }
  return { status: 404 };
}

function fingerprints(fileJson: Map<number, Record<string, unknown>>, req: RecordedRequest): JsonAnswer {
  const body = jsonBody(req) as { fingerprints?: unknown } | null;
  if (body === null || !Array.isArray(body.fingerprints)) return badRequest;
  const asked = body.fingerprints as unknown[];
  const matches = [...fileJson.values()].filter((f) => asked.includes(f.fileFingerprint));
  const matched = matches.map((f) => f.fileFingerprint as number);
  return {
    status: 200,
    json: {
      data: {
        isCacheBuilt: true,
        exactMatches: matches.map((f) => ({ id: f.modId, file: f, latestFiles: [f] })),
        exactFingerprints: matched,
        partialMatches: [],
        partialMatchFingerprints: {},
        installedFingerprints: asked,
        unmatchedFingerprints: asked.filter((a) => !matched.includes(a as number)),
      },
    },
  };
}

/** An optional integer parameter: absent or empty → null; not an integer → 'invalid'. */
function intParam(url: URL, name: string): number | null | 'invalid' {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return null;
  return /^\d+$/.test(raw) ? Number(raw) : 'invalid';
}

function modFiles(
  mod: CurseForgeModSpec,
  fileJson: Map<number, Record<string, unknown>>,
  url: URL,
): JsonAnswer {
  const index = intParam(url, 'index');
  const pageSize = intParam(url, 'pageSize');
  const loaderType = intParam(url, 'modLoaderType');
  if (index === 'invalid' || pageSize === 'invalid' || loaderType === 'invalid') return badRequest;
  const size = Math.min(pageSize ?? 50, 50);
  const from = index ?? 0;
  if (from + size > 10_000) return badRequest;
  const gameVersion = url.searchParams.get('gameVersion') || null;
  const loaderName = loaderType === null || loaderType === 0 ? null : LOADER_NAMES[loaderType];
  const all = mod.files
    .map((f) => fileJson.get(f.id)!)
    .filter((f) => gameVersion === null || (f.gameVersions as string[]).includes(gameVersion))
    .filter((f) => loaderName === null || (f.gameVersions as string[]).includes(loaderName ?? ''))
    .sort((a, b) => String(b.fileDate).localeCompare(String(a.fileDate)));
  const data = all.slice(from, from + size);
  return {
    status: 200,
    json: {
      data,
      pagination: { index: from, pageSize: size, resultCount: data.length, totalCount: all.length },
    },
  };
}

/**
 * CurseForge's fingerprint, written here on its own (not the adapter's code): MurmurHash2, 32-bit,
 * seed 1, over the bytes other than 9, 10, 13 and 32.
 */
function curseForgeFingerprint(bytes: Buffer): number {
  const data = Buffer.from(bytes.filter((b) => b !== 9 && b !== 10 && b !== 13 && b !== 32));
  const m = 0x5bd1e995;
  let h = (1 ^ data.length) >>> 0;
  const whole = data.length - (data.length % 4);
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    h = Math.imul(h, m) ^ Math.imul(k, m);
  }
  const tail = data.subarray(whole);
  if (tail.length > 0) {
    for (let j = tail.length - 1; j >= 0; j--) h ^= tail[j]! << (8 * j);
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  return (h ^ (h >>> 15)) >>> 0;
}
