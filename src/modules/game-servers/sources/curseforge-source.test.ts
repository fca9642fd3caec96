import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startCurseForgeServer,
  type CurseForgeFileSpec,
  type CurseForgeServer,
} from '../../../testing/curseforge-server.ts';
import { CURSEFORGE_PAGE_SIZE, CurseForgeSource } from './curseforge-source.ts';
import { fileDigests } from './file-digests.ts';
import { GuardedSourceHttp } from './source-http.ts';
import { SourceUnavailable } from './version-source.ts';

const jar = (text: string) => Buffer.from(`PK\u0003\u0004 ${text}`);
const JEI = jar('jei 19.21.0 forge');
const USER_AGENT = 'test-platform/1.0 (ops@example.test)';

/** 120 builds of a Fabric mod, one a day, the oldest first; every tenth for 1.20.1. */
const MANY: CurseForgeFileSpec[] = Array.from({ length: 120 }, (_, i) => ({
  id: 5_000_000 + i,
  displayName: `Many 1.0.${i}`,
  fileName: `many-1.0.${i}.jar`,
  fileDate: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
  gameVersions: [i % 10 === 0 ? '1.20.1' : '1.21.1', 'Fabric', 'Server'],
  bytes: jar(`many ${i}`),
}));

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'answered';
  } catch (e) {
    return e instanceof SourceUnavailable ? `${e.source}:${e.reason}` : `other: ${String(e)}`;
  }
}

function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('the CurseForge source', () => {
  let server: CurseForgeServer;
  let client: GuardedSourceHttp;
  let source: CurseForgeSource;

  beforeAll(async () => {
    server = await startCurseForgeServer([
      {
        id: 238222,
        name: 'Just Enough Items (JEI)',
        files: [
          {
            id: 5846810,
            displayName: 'jei-1.21.1-forge-19.21.0.247.jar',
            fileName: 'jei-1.21.1-forge-19.21.0.247.jar',
            fileDate: '2024-10-10T12:00:00.000Z',
            gameVersions: ['1.21.1', 'Forge', 'NeoForge'],
            bytes: JEI,
          },
          {
            id: 5846900,
            displayName: 'jei-1.21.1-fabric-19.21.0.247.jar',
            fileName: 'jei-1.21.1-fabric-19.21.0.247.jar',
            releaseType: 2,
            fileDate: '2024-10-11T12:00:00.000Z',
            gameVersions: ['1.21.1', 'Fabric'],
            bytes: jar('jei fabric'),
            distributable: false,
          },
        ],
      },
      { id: 900001, name: 'Many Builds', files: MANY },
    ]);
    client = new GuardedSourceHttp({ allowPrivate: true, allowHttp: true });
    source = new CurseForgeSource(client, {
      apiUrl: server.url,
      apiKey: server.apiKey,
      userAgent: USER_AGENT,
    });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  afterEach(() => server.fail('none'));

  it('identifies files by fingerprint (Minecraft’s game id), with the mod’s name and its types', async () => {
    const files = [fileDigests(JEI), fileDigests(jar('unknown mod'))];
    const before = server.apiRequests().length;
    const found = await source.identify(files);
    expect([...found.keys()]).toEqual([files[0]]);
    expect(found.get(files[0]!)).toMatchObject({
      source: 'curseforge',
      projectId: '238222',
      versionId: '5846810',
      projectName: 'Just Enough Items (JEI)',
      name: 'jei-1.21.1-forge-19.21.0.247.jar',
      versionType: 'release',
      loaders: ['forge', 'neoforge'],
      gameVersions: ['1.21.1'],
      file: { size: JEI.length, sha1: files[0]!.sha1, sha512: null },
    });
    const sent = server.apiRequests().slice(before);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/v1/fingerprints/432' });
    expect(JSON.parse(sent[0]!.body)).toEqual({ fingerprints: files.map((f) => f.fingerprint) });
    expect(sent.every((r) => r.headers['x-api-key'] === server.apiKey)).toBe(true);
  });

  it('reads every page of a mod’s files (50 a page) and filters by game version and loader', async () => {
    const before = server.apiRequests().length;
    const all = await source.versions('900001', { loaders: ['fabric'], gameVersions: ['1.21.1'] });
    expect(all).toHaveLength(108);
    expect(all[0]!.versionId).toBe(String(5_000_000 + 119));
    const pages = server
      .apiRequests()
      .slice(before)
      .map((r) => new URL(r.url, server.url).searchParams);
    expect(pages.map((q) => q.get('index'))).toEqual(['0', '50', '100']);
    expect(pages.every((q) => q.get('pageSize') === String(CURSEFORGE_PAGE_SIZE))).toBe(true);
    expect(pages[0]!.get('gameVersion')).toBe('1.21.1');
    expect(pages[0]!.get('modLoaderType')).toBe('4');

    const old = await source.versions('900001', { loaders: ['fabric'], gameVersions: ['1.20.1'] });
    expect(old).toHaveLength(12);
    const forge = await source.versions('238222', { loaders: ['forge'], gameVersions: [] });
    expect(forge.map((v) => v.versionId)).toEqual(['5846810']);
    const quiltServer = await source.versions('238222', {
      loaders: ['quilt', 'fabric'],
      gameVersions: ['1.21.1'],
    });
    expect(quiltServer.map((v) => [v.versionId, v.versionType, v.file.url])).toEqual([
      ['5846900', 'beta', ''],
    ]);
    expect(await source.versions('404404', { loaders: [], gameVersions: [] })).toEqual([]);
  });

  it('answers with empty parameters as CurseForge’s own client sends them', async () => {
    const headers = { 'x-api-key': server.apiKey };
    const url = `${server.url}/v1/mods/238222/files?gameVersion=&modLoaderType=&index=&pageSize=`;
    expect(await rawGet(url, headers)).toBe(200);
    expect(await rawGet(`${server.url}/v1/mods/238222/files?index=abc`, headers)).toBe(400);
    expect(await rawGet(url, {})).toBe(403);
  });

  it('reads one file of a mod', async () => {
    expect((await source.version('238222', '5846810'))?.file.filename).toBe(
      'jei-1.21.1-forge-19.21.0.247.jar',
    );
    expect(await source.version('900001', '5846810')).toBeNull();
  });

  it('is off without a key: nothing is sent, every call says so', async () => {
    const off = new CurseForgeSource(client, { apiUrl: server.url, apiKey: null, userAgent: USER_AGENT });
    const before = server.requests.length;
    expect(off.enabled()).toBe(false);
    expect(await reason(off.identify([fileDigests(JEI)]))).toBe('curseforge:off');
    expect(await reason(off.versions('238222', { loaders: [], gameVersions: [] }))).toBe('curseforge:off');
    expect(await reason(off.version('238222', '5846810'))).toBe('curseforge:off');
    expect(server.requests.length).toBe(before);
  });

  it('fails on a refused key (403), a 500, a closed connection or an answer that is not JSON', async () => {
    const wrongKey = new CurseForgeSource(client, {
      apiUrl: server.url,
      apiKey: 'wrong',
      userAgent: USER_AGENT,
    });
    expect(await reason(wrongKey.versions('238222', { loaders: [], gameVersions: [] }))).toBe(
      'curseforge:failed',
    );
    for (const mode of ['status500', 'close', 'garbage'] as const) {
      server.fail(mode);
      expect(await reason(source.identify([fileDigests(JEI)]))).toBe('curseforge:failed');
    }
  });
});
